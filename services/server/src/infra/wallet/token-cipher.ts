import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Encrypts the wallet provider's access tokens at rest (AES-256-GCM, a fresh IV per token, authenticated). The key
 * comes from WALLET_TOKEN_KEY (32 bytes, base64); the embedded default generates one under DATA_DIR (mode 0600).
 */
export class TokenCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('WALLET_TOKEN_KEY must be 32 bytes, base64-encoded');
  }

  static fromConfig(config: { WALLET_TOKEN_KEY?: string; DATA_DIR: string }): TokenCipher {
    if (config.WALLET_TOKEN_KEY) return new TokenCipher(Buffer.from(config.WALLET_TOKEN_KEY, 'base64'));
    if (config.DATA_DIR === 'memory://') return new TokenCipher(randomBytes(32));
    const file = path.join(config.DATA_DIR, 'wallet-token.key');
    if (!existsSync(file)) {
      mkdirSync(config.DATA_DIR, { recursive: true });
      try {
        writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      } catch {
        // Another process wrote it first: use theirs.
      }
    }
    return new TokenCipher(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed token');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
