import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { ticketDistributionDecider } from './distribution.decider.js';
import type { DistributionVoided, TicketDistributed, TicketRecalled } from './distribution.events.js';

const now = '2026-11-22T12:00:00.000Z';
const owned = { ownerId: 'u1', accountId: 'a1', isDuplicate: false };
const distribute = (distributionId: string, overrides: Record<string, unknown> = {}) =>
  ({
    type: 'Distribute',
    data: {
      ticketId: 't1',
      distributionId,
      userId: 'u1',
      ticket: owned,
      code: `code-${distributionId}`,
      expiresAt: null,
      maxClicks: 10,
      cost: 5,
      now,
      ...overrides,
    },
  }) as const;
const distributed = (distributionId: string): TicketDistributed => ({
  type: 'TicketDistributed',
  data: {
    ticketId: 't1',
    distributionId,
    userId: 'u1',
    accountId: 'a1',
    code: `code-${distributionId}`,
    expiresAt: null,
    maxClicks: 10,
    cost: 5,
    at: now,
  },
});
const recalled = (distributionId: string, userId = 'u1'): TicketRecalled => ({
  type: 'TicketRecalled',
  data: { ticketId: 't1', distributionId, userId, at: now },
});
const recall = (distributionId: string, userId = 'u1') =>
  ({ type: 'Recall', data: { ticketId: 't1', distributionId, userId, now } }) as const;
const why = { code: 'LINK_NOT_MADE', reason: 'The link could not be made; its credits were given back' };
const voidLink = (distributionId: string) =>
  ({ type: 'Void', data: { ticketId: 't1', distributionId, userId: 'u1', reference: 'cmd-1', ...why, now } }) as const;
const voided = (distributionId: string): DistributionVoided => ({
  type: 'DistributionVoided',
  data: { ticketId: 't1', distributionId, userId: 'u1', reference: 'cmd-1', ...why, at: now },
});

describe('ticket distribution decider', () => {
  const spec = deciderSpec(ticketDistributionDecider);

  it("gives the owner's ticket a link", () => {
    spec
      .given([])
      .when(distribute('d1'))
      .then([distributed('d1')]);
  });

  it('refuses a second live link, and allows a new one after a recall', () => {
    spec
      .given([distributed('d1')])
      .when(distribute('d2'))
      .thenThrows({ code: 'ALREADY_DISTRIBUTED' });
    spec
      .given([distributed('d1'), recalled('d1')])
      .when(distribute('d2'))
      .then([distributed('d2')]);
  });

  it("refuses another user's ticket and an unknown one alike, and a duplicate", () => {
    spec
      .given([])
      .when(distribute('d1', { ticket: { ...owned, ownerId: 'u2' } }))
      .thenThrows({ code: 'TICKET_NOT_FOUND' });
    spec
      .given([])
      .when(distribute('d1', { ticket: null }))
      .thenThrows({ code: 'TICKET_NOT_FOUND' });
    spec
      .given([])
      .when(distribute('d1', { ticket: { ...owned, isDuplicate: true } }))
      .thenThrows({ code: 'DUPLICATE_TICKET' });
  });

  it('recalls the live link for its owner only; a second recall says it was recalled', () => {
    spec
      .given([distributed('d1')])
      .when(recall('d1'))
      .then([recalled('d1')]);
    spec
      .given([distributed('d1')])
      .when(recall('d1', 'u2'))
      .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
    spec
      .given([distributed('d1'), recalled('d1')])
      .when(recall('d1'))
      .thenThrows({ code: 'ALREADY_RECALLED' });
    spec
      .given([distributed('d1')])
      .when(recall('d9'))
      .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
  });

  it('voids a link paid for and not made, once', () => {
    spec
      .given([])
      .when(voidLink('d1'))
      .then([voided('d1')]);
    spec
      .given([distributed('d0'), voided('d1')])
      .when(voidLink('d1'))
      .then([]);
  });

  it('never voids a link that was made, live or recalled: it stays paid for', () => {
    spec
      .given([distributed('d1')])
      .when(voidLink('d1'))
      .then([]);
    spec
      .given([distributed('d1'), recalled('d1')])
      .when(voidLink('d1'))
      .then([]);
  });

  it('never makes a voided link (its credits came back), and voiding one leaves the ticket free', () => {
    spec
      .given([voided('d1')])
      .when(distribute('d1'))
      .thenThrows({ code: 'LINK_NOT_MADE' });
    spec
      .given([voided('d1')])
      .when(distribute('d2'))
      .then([distributed('d2')]);
    // Another request's live link: the void of this one changes nothing about it.
    spec
      .given([distributed('d2'), voided('d1')])
      .when(recall('d2'))
      .then([recalled('d2')]);
  });
});
