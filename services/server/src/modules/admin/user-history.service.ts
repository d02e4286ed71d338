import { Inject, Injectable } from '@nestjs/common';
import { seatInfoCombined, type UserStateAt } from '@seatlink/contracts';
import { and, eq, lte } from 'drizzle-orm';
import pLimit from 'p-limit';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { creditsAt } from '../credits/index.js';
import { ticketDistributionStream, linkUrl, linkAt } from '../distribution/index.js';
import { accountAt } from '../wallet-accounts/index.js';
import { userStreams } from './admin.schema.js';

/**
 * A user's tickets, links and balance as they stood at a moment, folded from the events up to it with the same
 * deciders that made them: the history is the source of truth, the read models only its present.
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
    const credits = await creditsAt(this.store, userId, at);
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
      credit_changes: credits.changes,
      accounts: accounts.map((account) => ({
        account_id: account.accountId,
        email: account.email,
        linked_at: account.linkedAt.toISOString(),
      })),
      tickets: tickets.sort((a, b) => a.account_email.localeCompare(b.account_email) || a.title.localeCompare(b.title)),
    };
  }
}
