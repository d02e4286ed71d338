import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { API_KEY_PATTERN } from '@seatlink/contracts';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import type { AdmittedKey, ApiKeyGate } from '../../infra/http/api-key-gate.port.js';
import { apiKeys, apiKeyUses } from './api-keys.schema.js';
import { clock } from '../../shared/clock.js';

/** The SHA-256 of a key, as ApiKeyCreated keeps it. */
export const apiKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** A key's last use is written at most once a minute: a busy key does not write on every call. */
const USE_GRANULARITY_MS = 60_000;

/** API keys as the guard admits them: a live key of the read model, looked up by its hash. */
@Injectable()
export class ApiKeysGate implements ApiKeyGate {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async find(token: string): Promise<AdmittedKey | null> {
    if (!API_KEY_PATTERN.test(token)) return null;
    const [key] = await this.database.db
      .select({ keyId: apiKeys.keyId, name: apiKeys.name, scopes: apiKeys.scopes, userId: apiKeys.userId })
      .from(apiKeys)
      .leftJoin(apiKeyUses, eq(apiKeyUses.keyId, apiKeys.keyId))
      .where(and(eq(apiKeys.keyHash, apiKeyHash(token)), isNull(apiKeys.revokedAt), isNull(apiKeyUses.revokedAt)));
    return key ?? null;
  }

  async noteUse(keyId: string, ip: string): Promise<void> {
    const now = clock.now();
    await this.database.db
      .insert(apiKeyUses)
      .values({ keyId, lastUsedAt: now, lastIp: ip })
      .onConflictDoUpdate({
        target: apiKeyUses.keyId,
        set: { lastUsedAt: now, lastIp: ip },
        setWhere: or(
          isNull(apiKeyUses.lastUsedAt),
          lt(apiKeyUses.lastUsedAt, sql`${new Date(now.getTime() - USE_GRANULARITY_MS)}`),
        ),
      });
  }

  /** Stops the key at once (the revoking request writes it, besides the event the read model follows). */
  async stop(keyId: string): Promise<void> {
    const now = clock.now();
    await this.database.db
      .insert(apiKeyUses)
      .values({ keyId, revokedAt: now })
      .onConflictDoUpdate({ target: apiKeyUses.keyId, set: { revokedAt: now } });
  }
}
