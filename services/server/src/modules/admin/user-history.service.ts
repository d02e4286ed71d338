import { Inject, Injectable } from '@nestjs/common';
import { type CreditChange, seatInfoCombined, type UserStateAt } from '@seatlink/contracts';
import { and, eq, lte } from 'drizzle-orm';
import pLimit from 'p-limit';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import { creditsDecider } from '../credits/credits.decider.js';
import { type CreditsEvent, creditStream } from '../credits/credits.events.js';
import { ticketDistributionDecider } from '../distribution/distribution.decider.js';
import {
  clickStream,
  type TicketDistributed,
  type TicketDistributionEvent,
  ticketDistributionStream,
} from '../distribution/distribution.events.js';
import { walletAccountDecider } from '../wallet-accounts/wallet-account.decider.js';
import type { WalletAccountEvent } from '../wallet-accounts/wallet-account.events.js';
import { linkUrl } from '../wallet-accounts/read-models/accounts.queries.js';
import { userStreams } from './admin.schema.js';

const domain = <E>(events: readonly RecordedEvent[]) => events.map((e) => ({ type: e.type, data: e.data }) as E);

/** The credit stream's events as the changes they made, folded in turn (a set replaces the balance). */
function creditChangesOf(events: readonly RecordedEvent[]): CreditChange[] {
  let balance = 0;
  return events.flatMap((recorded): CreditChange[] => {
    const event = { type: recorded.type, data: recorded.data } as CreditsEvent;
    const at = recorded.createdAt.toISOString();
    const before = balance;
    let change: Omit<CreditChange, 'at' | 'change' | 'balance_after'>;
    switch (event.type) {
      case 'CreditsSet':
        balance = event.data.credits;
        change = { kind: 'set', payment_intent_id: null, reason: null };
        break;
      case 'CreditsDebited':
        balance = event.data.balanceAfter;
        change = { kind: 'spent', payment_intent_id: null, reason: event.data.reason };
        break;
      case 'CreditsRefunded':
        balance = event.data.balanceAfter;
        change = { kind: 'given_back', payment_intent_id: null, reason: event.data.reason };
        break;
      case 'CreditsPurchased':
        balance = event.data.balanceAfter;
        change = { kind: 'purchased', payment_intent_id: event.data.paymentIntentId, reason: null };
        break;
      case 'CreditsReversed':
        balance = event.data.balanceAfter;
        change = { kind: 'reversed', payment_intent_id: event.data.paymentIntentId, reason: event.data.reason };
        break;
      case 'PaymentDisputed':
        change = { kind: 'disputed', payment_intent_id: event.data.paymentIntentId, reason: event.data.reason };
        break;
      case 'LinkPaymentsCancelled':
        // Nothing was paid: not a change of credits.
        return [];
    }
    return [{ at, ...change, change: balance - before, balance_after: balance }];
  });
}

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
    const until = (events: readonly RecordedEvent[]) => events.filter((e) => e.createdAt <= at);
    const limit = pLimit(8);
    const streams = await this.database.db
      .select({ streamId: userStreams.streamId, kind: userStreams.kind })
      .from(userStreams)
      .where(and(eq(userStreams.userId, userId), lte(userStreams.firstAt, at)));
    const distributed = new Set(streams.filter((s) => s.kind === 'ticket-distribution').map((s) => s.streamId));

    const credits = until((await this.store.readStream(creditStream(userId))).events);
    const balance = fold(creditsDecider, domain<CreditsEvent>(credits)).balance;
    const creditChanges = creditChangesOf(credits);

    const accounts = await Promise.all(
      streams
        .filter((s) => s.kind === 'wallet-account')
        .map((s) => limit(async () => until((await this.store.readStream(s.streamId)).events))),
    );
    const live = accounts
      .filter((events) => events.length > 0)
      .map((events) => ({
        linkedAt: events[0]!.createdAt,
        state: fold(walletAccountDecider, domain<WalletAccountEvent>(events)),
      }))
      .filter(({ state }) => state.exists && !state.deleted && state.accountId !== null);

    const tickets = await Promise.all(
      live.flatMap(({ state }) =>
        [...state.tickets.values()].map((held) =>
          limit(async () => {
            const stream = ticketDistributionStream(held.ticketId);
            const distribution = distributed.has(stream) ? await this.linkAt(stream, at) : null;
            const seat = { section: held.pass.section, row: held.pass.row, seat: held.pass.seat };
            return {
              ticket_id: held.ticketId,
              account_id: state.accountId!,
              account_email: state.email,
              title: held.pass.title,
              subtitle: held.pass.subtitle,
              venue_name: held.pass.venueName,
              seat_info: seatInfoCombined(seat),
              distribution,
            };
          }),
        ),
      ),
    );
    return {
      at: at.toISOString(),
      balance,
      credit_changes: creditChanges,
      accounts: live.map(({ state, linkedAt }) => ({
        account_id: state.accountId!,
        email: state.email,
        linked_at: linkedAt.toISOString(),
      })),
      tickets: tickets.sort((a, b) => a.account_email.localeCompare(b.account_email) || a.title.localeCompare(b.title)),
    };
  }

  /** The ticket's live link at the moment, with the clicks it had counted by then. */
  private async linkAt(stream: string, at: Date): Promise<UserStateAt['tickets'][number]['distribution']> {
    const events = (await this.store.readStream(stream)).events.filter((e) => e.createdAt <= at);
    const state = fold(ticketDistributionDecider, domain<TicketDistributionEvent>(events));
    if (!state.current) return null;
    const made = events.findLast(
      (e) =>
        e.type === 'TicketDistributed' &&
        (e.data as TicketDistributed['data']).distributionId === state.current!.distributionId,
    )!;
    const data = made.data as TicketDistributed['data'];
    const clicks = (await this.store.readStream(clickStream(data.distributionId))).events.filter(
      (e) => e.createdAt <= at,
    );
    return {
      distribution_id: data.distributionId,
      link: linkUrl(this.config.DASHBOARD_URL, data.code),
      clicks: clicks.length,
      max_clicks: data.maxClicks,
      expires_at: data.expiresAt,
      created_at: made.createdAt.toISOString(),
    };
  }
}
