import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { type HealthCheck, ProvidesHealthCheck } from '../../infra/health/health-check.js';

/** Slack on top of two sync periods before an account counts as overdue (a sync takes its time, a schedule made again starts within a period). */
const GRACE_MS = 60_000;

/**
 * Wallet syncs that should have run and did not: an account whose last sync — or its linking, when it never synced —
 * is older than two sync periods. Syncs stop silently when their schedules are lost or the workers stop taking jobs;
 * this says so. An account whose syncs fail for a reason of its own (waiting for its owner to sign in again, a sync
 * that gave up: its card says why) is its owner's to see, not a reason to take the deployment out of a balancer.
 */
@Injectable()
@ProvidesHealthCheck()
export class WalletSyncHealth implements HealthCheck {
  readonly name = 'wallet syncs';

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async problems(): Promise<string[]> {
    const overdueMs = 2 * this.config.WALLET_SYNC_EVERY_MS + GRACE_MS;
    const [row] = await this.database.query<{ n: number }>(
      `select count(*)::int as n
         from wallet_accounts a left join wallet_sync_state s on s.account_id = a.id
        where not a.in_error_state and a.sync_error is null
          and coalesce(s.last_synced_at, a.created_at) < now() - ($1 || ' milliseconds')::interval`,
      [String(overdueMs)],
    );
    const n = Number(row?.n ?? 0);
    if (n === 0) return [];
    return [`${n} wallet account(s) not synced for over ${Math.round(overdueMs / 60_000)} min`];
  }
}
