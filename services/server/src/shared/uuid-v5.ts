import { hash } from 'node:crypto';
import { parse } from 'uuid';

/**
 * A name-based UUID (version 5, RFC 9562) in a namespace: the same ids as the `uuid` package's `v5(name, namespace)`,
 * without its costs per call (it parses the namespace and encodes the name through `encodeURIComponent` each time).
 * Event and ticket ids derive from these, thousands per sync: they must never change. A name with a lone surrogate,
 * which `v5` refuses, is hashed with U+FFFD in its place. The namespace and the name are hashed in one call (no hash
 * object per id).
 */
export function uuidV5In(namespace: string): (name: string) => string {
  const ns = Buffer.from(parse(namespace));
  return (name) => {
    const input = Buffer.allocUnsafe(ns.length + Buffer.byteLength(name, 'utf8'));
    ns.copy(input, 0);
    input.write(name, ns.length, 'utf8');
    const digest = hash('sha1', input, 'buffer');
    digest[6] = (digest[6]! & 0x0f) | 0x50;
    digest[8] = (digest[8]! & 0x3f) | 0x80;
    const hex = digest.toString('hex', 0, 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  };
}
