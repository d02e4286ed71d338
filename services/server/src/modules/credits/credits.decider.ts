import { hasForbiddenCharacters, MAX_CREDITS_REASON_LENGTH } from '@seatlink/contracts';
import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { CreditsEvent } from './credits.events.js';

export interface CreditsState {
  balance: number;
  /** Card payments that bought credits, by PaymentIntent: what they bought and how much of it went back. */
  purchases: Readonly<Record<string, { credits: number; reversed: number }>>;
  /**
   * The payment of every link a request ever paid for or gave up, by distribution id: what it cost, and whether it is
   * paid, paid back, or cancelled (given up before it was paid: no debit takes it afterwards). A link is paid for once
   * and given back once, whichever request, retry or settle asks, and in whatever order they arrive.
   *
   * A user may have tens of thousands of links, and a fold reads every debit: copying this map at each event would
   * make a fold quadratic, so `evolve` adds to it in place. A fold starts from a fresh `initialState()` and owns its
   * state; never evolve the same state twice.
   */
  links: Map<string, { cost: number; status: 'paid' | 'refunded' | 'cancelled' }>;
}

export type CreditsCommand =
  | {
      /**
       * An admin sets the balance, saying why. `expectedBalance`: the balance the admin saw when they confirmed; when
       * the balance is another now, nothing is set (BalanceChangedError).
       */
      type: 'SetCredits';
      data: { userId: string; credits: number; setBy: string; reason: string; expectedBalance?: number; now: string };
    }
  | {
      /**
       * Pays `cost` for each of the links not paid for (a retry pays nothing for what it paid before); a link given up
       * before it was paid for is never paid for. A link paid back is paid for again: its link was voided, so only a
       * request that decided on it before the voiding debits it again, and its settle pays it back again.
       */
      type: 'DebitCredits';
      data: { userId: string; cost: number; reference: string; distributionIds: readonly string[]; now: string };
    }
  | {
      type: 'PurchaseCredits';
      data: { userId: string; amount: number; amountPence: number; paymentIntentId: string; now: string };
    }
  | {
      type: 'ReverseCredits';
      data: {
        userId: string;
        /** The credits the money gone back stands for, in all, so far (Stripe reports refunds cumulatively). */
        totalCredits: number;
        reason: 'refund' | 'dispute_lost';
        reference: string;
        paymentIntentId: string;
        now: string;
      };
    }
  | {
      type: 'RecordDispute';
      data: {
        userId: string;
        paymentIntentId: string;
        disputeId: string;
        amountPence: number;
        reason: string;
        now: string;
      };
    }
  | {
      /**
       * Gives back what each of the links was paid, once; a link not paid for is cancelled instead (never paid for
       * afterwards), one given back already gets nothing. The links must be voided already (they can never be made).
       */
      type: 'RefundCredits';
      data: { userId: string; reference: string; distributionIds: readonly string[]; now: string };
    };

export const MAX_CREDITS = 1_000_000_000;

const wholeAmount = (amount: number) => Number.isInteger(amount) && amount > 0 && amount <= MAX_CREDITS;

export class InsufficientCreditsError extends DomainError {
  constructor(
    readonly needed: number,
    readonly balance: number,
  ) {
    super(
      `Insufficient credits: this needs ${needed} credits and the balance is ${balance}`,
      'INSUFFICIENT_CREDITS',
      402,
    );
  }
}

/** The balance moved since the admin looked: what they confirmed ("from X to Y") is not what would be recorded. */
export class BalanceChangedError extends DomainError {
  constructor(readonly balance: number) {
    super(
      `The balance changed to ${balance} since you looked: check the new balance and confirm again`,
      'BALANCE_CHANGED',
      409,
      { balance },
    );
  }
}

/** The reason an admin gives for setting credits: required, one bounded line of plain text (kept in the audit log). */
function checkedReason(reason: string): string {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (!text) throw new DomainError('Reason is required', 'INVALID_REASON', 400);
  if (text.length > MAX_CREDITS_REASON_LENGTH) throw new DomainError('Reason is too long', 'INVALID_REASON', 400);
  if (hasForbiddenCharacters(text)) {
    throw new DomainError('Reason contains characters that are not allowed', 'INVALID_REASON', 400);
  }
  return text;
}

/** The user's credits: never below zero, whatever runs at the same time (the stream decides each change in turn). */
export const creditsDecider: Decider<CreditsState, CreditsCommand, CreditsEvent> = {
  initialState: () => ({ balance: 0, purchases: {}, links: new Map() }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'CreditsSet':
        return { ...state, balance: event.data.credits };
      case 'CreditsDebited': {
        const { amount, distributionIds } = event.data;
        // Every link of a debit costs the same: the request's cost.
        const cost = distributionIds.length > 0 ? amount / distributionIds.length : 0;
        for (const id of distributionIds) state.links.set(id, { cost, status: 'paid' });
        return { ...state, balance: event.data.balanceAfter };
      }
      case 'CreditsRefunded':
        for (const id of event.data.distributionIds) {
          const paid = state.links.get(id);
          if (paid) state.links.set(id, { ...paid, status: 'refunded' });
        }
        return { ...state, balance: event.data.balanceAfter };
      case 'LinkPaymentsCancelled':
        for (const id of event.data.distributionIds) {
          if (!state.links.has(id)) state.links.set(id, { cost: 0, status: 'cancelled' });
        }
        return state;
      case 'CreditsPurchased':
        return {
          ...state,
          balance: event.data.balanceAfter,
          purchases: { ...state.purchases, [event.data.paymentIntentId]: { credits: event.data.amount, reversed: 0 } },
        };
      case 'CreditsReversed': {
        const purchase = state.purchases[event.data.paymentIntentId];
        return {
          ...state,
          balance: event.data.balanceAfter,
          purchases: purchase
            ? {
                ...state.purchases,
                [event.data.paymentIntentId]: { ...purchase, reversed: purchase.reversed + event.data.requested },
              }
            : state.purchases,
        };
      }
      case 'PaymentDisputed':
        return state;
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'SetCredits': {
        const { credits, expectedBalance } = command.data;
        if (!Number.isInteger(credits) || credits < 0 || credits > MAX_CREDITS) {
          throw new DomainError('Credits must be a whole number from 0 to 1000000000', 'INVALID_CREDITS', 400);
        }
        const reason = checkedReason(command.data.reason);
        if (expectedBalance !== undefined && expectedBalance !== state.balance) {
          throw new BalanceChangedError(state.balance);
        }
        return [
          {
            type: 'CreditsSet',
            data: {
              userId: command.data.userId,
              credits,
              previousBalance: state.balance,
              setBy: command.data.setBy,
              reason,
              at: command.data.now,
            },
          },
        ];
      }
      case 'DebitCredits': {
        const { userId, cost, reference, now } = command.data;
        if (!wholeAmount(cost)) throw new DomainError('A debit is a whole number of credits', 'INVALID_CREDITS', 400);
        const distributionIds = [...new Set(command.data.distributionIds)].filter((id) => {
          const status = state.links.get(id)?.status;
          return status === undefined || status === 'refunded';
        });
        if (distributionIds.length === 0) return [];
        const amount = cost * distributionIds.length;
        if (!wholeAmount(amount)) throw new DomainError('A debit is a whole number of credits', 'INVALID_CREDITS', 400);
        if (amount > state.balance) throw new InsufficientCreditsError(amount, state.balance);
        return [
          {
            type: 'CreditsDebited',
            data: {
              userId,
              amount,
              balanceAfter: state.balance - amount,
              reason: 'distribution',
              reference,
              distributionIds,
              at: now,
            },
          },
        ];
      }
      case 'PurchaseCredits': {
        const { userId, amount, amountPence, paymentIntentId, now } = command.data;
        if (!wholeAmount(amount))
          throw new DomainError('A purchase is a whole number of credits', 'INVALID_CREDITS', 400);
        // A payment buys its credits once, however many times it is reported.
        if (state.purchases[paymentIntentId]) return [];
        return [
          {
            type: 'CreditsPurchased',
            data: {
              userId,
              amount,
              amountPence,
              paymentIntentId,
              balanceAfter: Math.min(state.balance + amount, MAX_CREDITS),
              at: now,
            },
          },
        ];
      }
      case 'ReverseCredits': {
        const { userId, totalCredits, reason, reference, paymentIntentId, now } = command.data;
        if (!Number.isInteger(totalCredits) || totalCredits < 0)
          throw new DomainError('A reversal is a whole number of credits', 'INVALID_CREDITS', 400);
        const purchase = state.purchases[paymentIntentId];
        if (!purchase) throw new DomainError('No credits were bought with this payment', 'PAYMENT_NOT_FULFILLED', 409);
        // Only what is newly gone back, and never more than the payment bought.
        const requested = Math.min(totalCredits, purchase.credits) - purchase.reversed;
        if (requested <= 0) return [];
        const taken = Math.min(requested, state.balance);
        return [
          {
            type: 'CreditsReversed',
            data: {
              userId,
              requested,
              amount: taken,
              reason,
              reference,
              paymentIntentId,
              balanceAfter: state.balance - taken,
              at: now,
            },
          },
        ];
      }
      case 'RecordDispute': {
        const { userId, paymentIntentId, disputeId, amountPence, reason, now } = command.data;
        return [
          { type: 'PaymentDisputed', data: { userId, paymentIntentId, disputeId, amountPence, reason, at: now } },
        ];
      }
      case 'RefundCredits': {
        const { userId, reference, now } = command.data;
        const asked = [...new Set(command.data.distributionIds)];
        const distributionIds = asked.filter((id) => state.links.get(id)?.status === 'paid');
        const unpaid = asked.filter((id) => !state.links.has(id));
        const amount = distributionIds.reduce((sum, id) => sum + state.links.get(id)!.cost, 0);
        const cancelled: CreditsEvent[] =
          unpaid.length > 0
            ? [{ type: 'LinkPaymentsCancelled', data: { userId, reference, distributionIds: unpaid, at: now } }]
            : [];
        if (distributionIds.length === 0 || amount <= 0) return cancelled;
        return [
          ...cancelled,
          {
            type: 'CreditsRefunded',
            data: {
              userId,
              amount,
              balanceAfter: Math.min(state.balance + amount, MAX_CREDITS),
              reason: 'distribution_not_made',
              reference,
              distributionIds,
              at: now,
            },
          },
        ];
      }
    }
  },
};
