import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { creditsDecider } from './credits.decider.js';
import type { CreditsSet } from './credits.events.js';

const now = '2026-03-01T12:00:00.000Z';
const set = (credits: number, previousBalance: number, reason = 'Goodwill for the outage'): CreditsSet => ({
  type: 'CreditsSet',
  data: { userId: 'u1', credits, previousBalance, setBy: 'admin1', reason, at: now },
});
/** A CreditsSet recorded before reasons were asked for. */
const setWithoutReason = (credits: number, previousBalance: number): CreditsSet => ({
  type: 'CreditsSet',
  data: { userId: 'u1', credits, previousBalance, setBy: 'admin1', at: now },
});

describe('credits decider', () => {
  const spec = deciderSpec(creditsDecider);
  const setCredits = (credits: number, reason = 'Goodwill for the outage', expectedBalance?: number) =>
    ({
      type: 'SetCredits',
      data: {
        userId: 'u1',
        credits,
        setBy: 'admin1',
        reason,
        now,
        ...(expectedBalance === undefined ? {} : { expectedBalance }),
      },
    }) as const;

  it('sets the credits of a user with no history, from a balance of 0, with the reason', () => {
    spec
      .given([])
      .when(setCredits(120))
      .then([set(120, 0)]);
  });

  it('records the balance it replaced', () => {
    spec
      .given([set(120, 0), set(30, 120)])
      .when(setCredits(0))
      .then([set(0, 30)]);
  });

  it('folds sets recorded before reasons were asked for', () => {
    spec
      .given([setWithoutReason(70, 0), set(30, 70), setWithoutReason(45, 30)])
      .when(setCredits(10, 'Correction'))
      .then([set(10, 45, 'Correction')]);
  });

  it('keeps the reason trimmed', () => {
    spec
      .given([])
      .when(setCredits(5, '  Refund of a double charge \u00a0'))
      .then([set(5, 0, 'Refund of a double charge')]);
  });

  it.each([-1, 2.5, Number.NaN, 1_000_000_001])('refuses %s credits', (credits) => {
    spec.given([]).when(setCredits(credits)).thenThrows({ code: 'INVALID_CREDITS' });
  });

  it.each([
    ['no reason', '', /Reason is required/],
    ['a blank reason', ' \t ', /Reason is required/],
    ['a reason over 200 characters', 'x'.repeat(201), /Reason is too long/],
    ['a NUL', 'Goodwill\u0000', /not allowed/],
    ['a line break', 'Good\nwill', /not allowed/],
    ['a bidi override', 'Goodwill \u202Eetouq', /not allowed/],
    ['a lone surrogate', 'Goodwill \uD800', /not allowed/],
  ])('refuses %s', (_label, reason, message) => {
    spec.given([]).when(setCredits(10, reason)).thenThrows({ code: 'INVALID_REASON', message });
  });

  it('sets when the balance is the one the admin saw', () => {
    spec
      .given([set(40, 0)])
      .when(setCredits(75, 'Goodwill for the outage', 40))
      .then([set(75, 40)]);
  });

  it('refuses when the balance moved since the admin saw it, naming the balance now', () => {
    spec
      .given([set(40, 0), set(35, 40)])
      .when(setCredits(75, 'Goodwill for the outage', 40))
      .thenThrows({ code: 'BALANCE_CHANGED', message: /changed to 35/ });
  });
});

describe('credits decider: debits and refunds', () => {
  const spec = deciderSpec(creditsDecider);
  const debit = (cost: number, distributionIds: string[] = ['d1'], reference = 'cmd-1') =>
    ({ type: 'DebitCredits', data: { userId: 'u1', cost, reference, distributionIds, now } }) as const;
  const refund = (distributionIds: string[] = ['d1'], reference = 'cmd-1') =>
    ({ type: 'RefundCredits', data: { userId: 'u1', reference, distributionIds, now } }) as const;
  const debited = (amount: number, balanceAfter: number, distributionIds: string[] = ['d1'], reference = 'cmd-1') => ({
    type: 'CreditsDebited' as const,
    data: {
      userId: 'u1',
      amount,
      balanceAfter,
      reason: 'distribution' as const,
      reference,
      distributionIds,
      at: now,
    },
  });
  const refunded = (amount: number, balanceAfter: number, distributionIds: string[] = ['d1'], reference = 'cmd-1') => ({
    type: 'CreditsRefunded' as const,
    data: {
      userId: 'u1',
      amount,
      balanceAfter,
      reason: 'distribution_not_made' as const,
      reference,
      distributionIds,
      at: now,
    },
  });

  it('debits what the balance holds, down to exactly zero', () => {
    spec
      .given([set(10, 0)])
      .when(debit(5, ['d1', 'd2']))
      .then([debited(10, 0, ['d1', 'd2'])]);
  });

  it('refuses a debit beyond the balance, saying what was needed and what there is', () => {
    spec
      .given([set(10, 0), debited(5, 5)])
      .when(debit(3, ['d2', 'd3']))
      .thenThrows({ code: 'INSUFFICIENT_CREDITS', message: /needs 6 credits and the balance is 5/ });
  });

  it('pays for each link once: a retry pays only for the links it did not pay for before', () => {
    spec
      .given([set(20, 0), debited(10, 10, ['d1', 'd2'])])
      .when(debit(5, ['d1', 'd2', 'd3'], 'cmd-1'))
      .then([debited(5, 5, ['d3'])]);
    spec
      .given([set(20, 0), debited(10, 10, ['d1', 'd2'])])
      .when(debit(5, ['d2', 'd1']))
      .then([]);
    // The same link twice in one command is one link.
    spec
      .given([set(20, 0)])
      .when(debit(5, ['d1', 'd1']))
      .then([debited(5, 15)]);
  });

  it('refunds what each link was paid, onto the balance', () => {
    spec
      .given([set(10, 0), debited(10, 0, ['d1', 'd2'])])
      .when(refund(['d2']))
      .then([refunded(5, 5, ['d2'])]);
  });

  it('refunds a link once, and never one that was not paid for (that one is cancelled)', () => {
    const cancelled = (distributionIds: string[]) => ({
      type: 'LinkPaymentsCancelled' as const,
      data: { userId: 'u1', reference: 'cmd-1', distributionIds, at: now },
    });
    spec
      .given([set(10, 0), debited(10, 0, ['d1', 'd2']), refunded(5, 5, ['d2'])])
      .when(refund(['d1', 'd2', 'd9']))
      .then([cancelled(['d9']), refunded(5, 10, ['d1'])]);
    spec
      .given([set(10, 0), debited(10, 0, ['d1', 'd2']), refunded(10, 10, ['d1', 'd2'])])
      .when(refund(['d1', 'd2']))
      .then([]);
    spec
      .given([set(10, 0)])
      .when(refund(['d1']))
      .then([cancelled(['d1'])]);
  });

  it('pays a link paid back again (a request that decided on it before it was voided); its settle gives it back', () => {
    spec
      .given([set(10, 0), debited(5, 5, ['d1']), refunded(5, 10, ['d1'])])
      .when(debit(5, ['d1']))
      .then([debited(5, 5, ['d1'])]);
    spec
      .given([set(10, 0), debited(5, 5, ['d1']), refunded(5, 10, ['d1']), debited(5, 5, ['d1'])])
      .when(refund(['d1']))
      .then([refunded(5, 10, ['d1'])]);
  });

  it('cancels the payment of a link given up before it was paid for: no debit takes it afterwards', () => {
    const cancelled = (distributionIds: string[]) => ({
      type: 'LinkPaymentsCancelled' as const,
      data: { userId: 'u1', reference: 'cmd-1', distributionIds, at: now },
    });
    // The settle of a request that stalled before paying: d2 is paid, d3 not yet.
    spec
      .given([set(10, 0), debited(5, 5, ['d2'])])
      .when(refund(['d2', 'd3']))
      .then([cancelled(['d3']), refunded(5, 10, ['d2'])]);
    // The request wakes up and pays: nothing for d3.
    spec
      .given([set(10, 0), debited(5, 5, ['d2']), cancelled(['d3']), refunded(5, 10, ['d2'])])
      .when(debit(5, ['d3']))
      .then([]);
    spec
      .given([set(10, 0), cancelled(['d3'])])
      .when(refund(['d3']))
      .then([]);
  });

  it('refunds at the price each link was paid, whatever the cost is now', () => {
    spec
      .given([set(100, 0), debited(10, 90, ['d1', 'd2']), debited(21, 69, ['d3', 'd4', 'd5'], 'cmd-2')])
      .when(refund(['d2', 'd4'], 'cmd-2'))
      .then([refunded(12, 81, ['d2', 'd4'], 'cmd-2')]);
  });

  it.each([0, -5, 1.5, Number.NaN])('refuses a debit at a cost of %s', (cost) => {
    spec
      .given([set(10, 0)])
      .when(debit(cost))
      .thenThrows({ code: 'INVALID_CREDITS' });
  });
});

describe('credits decider: purchases and reversals', () => {
  const spec = deciderSpec(creditsDecider);
  const purchase = (amount: number) =>
    ({
      type: 'PurchaseCredits',
      data: { userId: 'u1', amount, amountPence: amount * 100, paymentIntentId: 'pi_1', now },
    }) as const;
  const reverse = (totalCredits: number) =>
    ({
      type: 'ReverseCredits',
      data: { userId: 'u1', totalCredits, reason: 'refund', reference: 'ch_1', paymentIntentId: 'pi_1', now },
    }) as const;
  const purchased = (amount: number, balanceAfter: number) =>
    ({
      type: 'CreditsPurchased',
      data: { userId: 'u1', amount, amountPence: amount * 100, paymentIntentId: 'pi_1', balanceAfter, at: now },
    }) as const;
  const reversed = (requested: number, amount: number, balanceAfter: number) =>
    ({
      type: 'CreditsReversed',
      data: {
        userId: 'u1',
        requested,
        amount,
        reason: 'refund',
        reference: 'ch_1',
        paymentIntentId: 'pi_1',
        balanceAfter,
        at: now,
      },
    }) as const;

  it('adds what a payment bought', () => {
    spec
      .given([set(10, 0)])
      .when(purchase(25))
      .then([
        {
          type: 'CreditsPurchased',
          data: { userId: 'u1', amount: 25, amountPence: 2500, paymentIntentId: 'pi_1', balanceAfter: 35, at: now },
        },
      ]);
  });

  it('grants a payment once, however often it is reported', () => {
    spec
      .given([set(10, 0), purchased(25, 35)])
      .when(purchase(25))
      .then([]);
  });

  it('takes back a refund down to zero at most, recording what it could not take', () => {
    spec
      .given([
        set(10, 0),
        purchased(25, 35),
        {
          type: 'CreditsDebited',
          data: {
            userId: 'u1',
            amount: 25,
            balanceAfter: 10,
            reason: 'distribution',
            reference: 'cmd-1',
            distributionIds: ['d1'],
            at: now,
          },
        },
      ])
      .when(reverse(25))
      .then([reversed(25, 10, 0)]);
  });

  it('takes back only what is newly refunded, never more than the payment bought', () => {
    spec
      .given([purchased(25, 25)])
      .when(reverse(10))
      .then([reversed(10, 10, 15)]);
    spec
      .given([purchased(25, 25), reversed(10, 10, 15)])
      .when(reverse(10))
      .then([]);
    spec
      .given([purchased(25, 25), reversed(10, 10, 15)])
      .when(reverse(40))
      .then([reversed(15, 15, 0)]);
  });

  it('refuses a reversal of a payment that bought nothing', () => {
    spec
      .given([set(10, 0)])
      .when(reverse(5))
      .thenThrows({ code: 'PAYMENT_NOT_FULFILLED' });
  });

  it.each([0, -1, 2.5])('refuses a purchase of %s', (amount) => {
    spec.given([]).when(purchase(amount)).thenThrows({ code: 'INVALID_CREDITS' });
  });

  it.each([-1, 2.5])('refuses a reversal of %s', (amount) => {
    spec
      .given([purchased(25, 25)])
      .when(reverse(amount))
      .thenThrows({ code: 'INVALID_CREDITS' });
  });
});
