import { Inject, Injectable } from '@nestjs/common';
import { seatInfoCombined, userIdParamSchema, type UserStateAt } from '@seatlink/contracts';
import { and, eq, lte } from 'drizzle-orm';
import pLimit from 'p-limit';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { apiKeysAt } from '../api-keys/index.js';
import { creditsAt } from '../credits/index.js';
import { ticketDistributionStream, linkUrl, linkAt } from '../distribution/index.js';
import { accessAt, findUserById } from '../identity/index.js';
import { accountAt } from '../wallet-accounts/index.js';
import { webhooksAt } from '../webhooks/index.js';
import { userStreams } from './admin.schema.js';

/**
 * A user's tickets, links, balance (each change, who set it and why) and access (ban, second factors, API keys,
 * webhooks) as they stood at a moment, folded from the events up to it: the history is the source of truth, the read
 * models only its present.
 */
@Injectable()
export class UserHistory {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async stateAt(userId: string, at: Date): Promise<UserStateAt> {
    const limit = pLimit(8);
    const streams = await this.database.db
      .select({ streamId: userStreams.streamId, kind: userStreams.kind })
      .from(userStreams)
      .where(and(eq(userStreams.userId, userId), lte(userStreams.firstAt, at)));
    const distributed = new Set(streams.filter((s) => s.kind === 'ticket-distribution').map((s) => s.streamId));
    const [credits, access, apiKeys, webhooks] = await Promise.all([
      creditsAt(this.store, userId, at),
      accessAt(this.store, userId, at),
      apiKeysAt(this.store, userId, at),
      webhooksAt(this.store, userId, at),
    ]);
    // Who set credits, by their e-mail (the stream knows their id; the seed set some as no user).
    const setters = new Map<string, string | null>();
    for (const change of credits.changes) {
      if (change.by && !setters.has(change.by)) {
        setters.set(
          change.by,
          userIdParamSchema.safeParse(change.by).success
            ? ((await findUserById(this.database.db, change.by))?.email ?? null)
            : null,
        );
      }
    }
    const accounts = (
      await Promise.all(
        streams
          .filter((s) => s.kind === 'wallet-account')
          .map((s) => limit(() => accountAt(this.store, s.streamId, at))),
      )
    ).filter((account) => account !== null);

    const tickets = await Promise.all(
      accounts.flatMap((account) =>
        account.tickets.map(({ ticketId, pass }) =>
          limit(async () => {
            const link = distributed.has(ticketDistributionStream(ticketId))
              ? await linkAt(this.store, ticketId, at)
              : null;
            return {
              ticket_id: ticketId,
              account_id: account.accountId,
              account_email: account.email,
              title: pass.title,
              subtitle: pass.subtitle,
              venue_name: pass.venueName,
              seat_info: seatInfoCombined({ section: pass.section, row: pass.row, seat: pass.seat }),
              distribution: link && {
                distribution_id: link.distributionId,
                link: linkUrl(this.config.DASHBOARD_URL, link.code),
                clicks: link.clicks,
                max_clicks: link.maxClicks,
                expires_at: link.expiresAt,
                label: link.label,
                created_at: link.createdAt.toISOString(),
              },
            };
          }),
        ),
      ),
    );
    return {
      at: at.toISOString(),
      balance: credits.balance,
      credit_changes: credits.changes.map((change) => ({
        ...change,
        by: change.by ? (setters.get(change.by) ?? null) : null,
      })),
      access: {
        ...access,
        api_keys: apiKeys.map((k) => ({ key_id: k.keyId, name: k.name, scopes: k.scopes, created_at: k.createdAt })),
        webhooks: webhooks.map((w) => ({
          endpoint_id: w.endpointId,
          url: w.url,
          events: w.events,
          enabled: w.enabled,
        })),
      },
      accounts: accounts.map((account) => ({
        account_id: account.accountId,
        email: account.email,
        linked_at: account.linkedAt.toISOString(),
      })),
      tickets: tickets.sort((a, b) => a.account_email.localeCompare(b.account_email) || a.title.localeCompare(b.title)),
    };
  }
}
