/**
 * A position in PostgreSQL's write-ahead log (an LSN, written `16/B374D848`) as a number that orders: what a replica
 * has replayed is compared with what a reader wrote or was told of. Kept as a fixed-width hex string where it is
 * stored (Redis compares those as strings in the order of the positions).
 */
export type WalPosition = bigint;

/** `16/B374D848` → its position; null for null (a server that is not a replica answers null for its replay). */
export function parseWalPosition(lsn: string | null | undefined): WalPosition | null {
  if (!lsn) return null;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn.trim());
  if (!match) throw new Error(`Not a WAL position: ${lsn.slice(0, 40)}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The position as 16 hex digits: strings of that form order as the positions do. */
export const walKey = (position: WalPosition): string => position.toString(16).padStart(16, '0');

/** The position a `walKey` string holds; null for anything else. */
export function fromWalKey(key: string | null | undefined): WalPosition | null {
  return key && /^[0-9a-f]{16}$/.test(key) ? BigInt(`0x${key}`) : null;
}
