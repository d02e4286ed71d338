import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { ticketDistributionDecider } from './distribution.decider.js';
import type { TicketDistributed, TicketRecalled } from './distribution.events.js';

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
});
