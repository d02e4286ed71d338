import type { CreditChange } from '@seatlink/contracts';
import type { EventStore, RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import { fold } from '../../../shared/event-sourcing/decider.js';
import { creditsDecider } from '../credits.decider.js';
import { type CreditsEvent, creditStream } from '../credits.events.js';

/**
 * The credit stream's events as the changes they made, folded in turn (a set replaces the balance). A set's `by` is the
 * admin's user id.
 */
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
        // The admin's id here: the caller names them (the credits module knows no e-mail).
        change = { kind: 'set', payment_intent_id: null, reason: event.data.reason ?? null, by: event.data.setBy };
        break;
      case 'CreditsDebited':
        balance = event.data.balanceAfter;
        change = { kind: 'spent', payment_intent_id: null, reason: event.data.reason, by: null };
        break;
      case 'CreditsRefunded':
        balance = event.data.balanceAfter;
        change = { kind: 'given_back', payment_intent_id: null, reason: event.data.reason, by: null };
        break;
      case 'CreditsPurchased':
        balance = event.data.balanceAfter;
        change = { kind: 'purchased', payment_intent_id: event.data.paymentIntentId, reason: null, by: null };
        break;
      case 'CreditsReversed':
        balance = event.data.balanceAfter;
        change = {
          kind: 'reversed',
          payment_intent_id: event.data.paymentIntentId,
          reason: event.data.reason,
          by: null,
        };
        break;
      case 'PaymentDisputed':
        change = {
          kind: 'disputed',
          payment_intent_id: event.data.paymentIntentId,
          reason: event.data.reason,
          by: null,
        };
        break;
      case 'LinkPaymentsCancelled':
        // Nothing was paid: not a change of credits.
        return [];
    }
    return [{ at, ...change, change: balance - before, balance_after: balance }];
  });
}

/**
 * A user's balance and credit changes as they stood at a moment, folded from the credit stream up to it (all of it
 * without a moment: the balance now, whatever the read model shows yet).
 */
export async function creditsAt(
  store: EventStore,
  userId: string,
  at?: Date,
): Promise<{ balance: number; changes: CreditChange[] }> {
  const events = (await store.readStream(creditStream(userId))).events.filter((e) => !at || e.createdAt <= at);
  const balance = fold(
    creditsDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as CreditsEvent),
  ).balance;
  return { balance, changes: creditChangesOf(events) };
}
