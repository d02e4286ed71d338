import type { DomainEvent } from '../../shared/event-sourcing/decider.js';

/**
 * An admin (`setBy`) set the balance to an exact figure, from `previousBalance`, and said why (`reason`, shown in the
 * user's audit log). Events recorded before reasons were asked for have none.
 */
export type CreditsSet = DomainEvent<
  'CreditsSet',
  { userId: string; credits: number; previousBalance: number; setBy: string; reason?: string; at: string }
>;

/** Credits spent: `reference` is the command that spent them (a distribution request), with what it bought. */
export type CreditsDebited = DomainEvent<
  'CreditsDebited',
  {
    userId: string;
    amount: number;
    balanceAfter: number;
    reason: 'distribution';
    reference: string;
    distributionIds: string[];
    at: string;
  }
>;

/** Credits given back for what a debit paid and did not get (a distribution that could not be made). */
export type CreditsRefunded = DomainEvent<
  'CreditsRefunded',
  {
    userId: string;
    amount: number;
    balanceAfter: number;
    reason: 'distribution_not_made';
    reference: string;
    distributionIds: string[];
    at: string;
  }
>;

/**
 * Links given up before they were paid for (a request that stalled past its settle): no later debit takes their
 * payment. The balance does not change.
 */
export type LinkPaymentsCancelled = DomainEvent<
  'LinkPaymentsCancelled',
  { userId: string; reference: string; distributionIds: string[]; at: string }
>;

/** Credits bought by card: one per pound of a PaymentIntent that succeeded (granted once per PaymentIntent). */
export type CreditsPurchased = DomainEvent<
  'CreditsPurchased',
  { userId: string; amount: number; amountPence: number; paymentIntentId: string; balanceAfter: number; at: string }
>;

/**
 * Credits taken back for money that went back (a refund, a dispute lost): as many as were asked (`requested`) but no
 * more than the balance holds (`amount`): the balance never goes below zero, and what could not be taken is recorded.
 */
export type CreditsReversed = DomainEvent<
  'CreditsReversed',
  {
    userId: string;
    requested: number;
    amount: number;
    reason: 'refund' | 'dispute_lost';
    reference: string;
    paymentIntentId: string;
    balanceAfter: number;
    at: string;
  }
>;

/** The payer disputed a card payment with their bank (a chargeback opened): recorded; the credits stay until it is lost. */
export type PaymentDisputed = DomainEvent<
  'PaymentDisputed',
  { userId: string; paymentIntentId: string; disputeId: string; amountPence: number; reason: string; at: string }
>;

export type CreditsEvent =
  | CreditsSet
  | CreditsDebited
  | CreditsRefunded
  | LinkPaymentsCancelled
  | CreditsPurchased
  | CreditsReversed
  | PaymentDisputed;

/** One stream per user: it owns the user's credits and decides every change to them. */
export const creditStream = (userId: string) => `credits-${userId}`;
