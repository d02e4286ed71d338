import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { DistributionVoided, TicketDistributionEvent } from './distribution.events.js';

/** A ticket's distribution state: its live link, if any, the links it had, and the paid-for links given up. */
export interface TicketDistributionState {
  current: { distributionId: string; userId: string } | null;
  recalled: ReadonlySet<string>;
  /** Every link this ticket has had (live or recalled). */
  made: ReadonlySet<string>;
  /** Links paid for and never made, given up so they never will be: distribution id → the request that paid. */
  voided: ReadonlyMap<string, string>;
}

export type TicketDistributionCommand =
  | {
      type: 'Distribute';
      data: {
        ticketId: string;
        distributionId: string;
        /** The caller. */
        userId: string;
        /** The ticket as the caller's tickets show it now: its owner (null: no such ticket) and whether a duplicate. */
        ticket: { ownerId: string; accountId: string; isDuplicate: boolean } | null;
        code: string;
        expiresAt: string | null;
        maxClicks: number | null;
        cost: number;
        now: string;
      };
    }
  | { type: 'Recall'; data: { ticketId: string; distributionId: string; userId: string; now: string } }
  | {
      /** Give up a link that was paid for, unless it was made: afterwards it never can be (its credits go back). */
      type: 'Void';
      /** What its voiding records (the request that paid, why it was not made), and when. */
      data: Omit<DistributionVoided['data'], 'at'> & { now: string };
    };

export const DISTRIBUTION_REFUSALS = {
  notFound: () => new DomainError('Ticket not found', 'TICKET_NOT_FOUND', 404),
  duplicate: () => new DomainError('Cannot distribute duplicate tickets', 'DUPLICATE_TICKET', 409),
  distributed: () => new DomainError('Ticket is already distributed', 'ALREADY_DISTRIBUTED', 409),
  noDistribution: () => new DomainError('Distribution not found', 'DISTRIBUTION_NOT_FOUND', 404),
  recalled: () => new DomainError('This link was already recalled', 'ALREADY_RECALLED', 409),
  notMade: () => new DomainError('The link could not be made; its credits were given back', 'LINK_NOT_MADE', 409),
};

/** One live link per ticket, only for its owner, never for a duplicate; a recall only by the link's owner. */
export const ticketDistributionDecider: Decider<
  TicketDistributionState,
  TicketDistributionCommand,
  TicketDistributionEvent
> = {
  initialState: () => ({ current: null, recalled: new Set(), made: new Set(), voided: new Map() }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'TicketDistributed':
        return {
          ...state,
          current: { distributionId: event.data.distributionId, userId: event.data.userId },
          made: new Set([...state.made, event.data.distributionId]),
        };
      case 'TicketRecalled':
        return { ...state, current: null, recalled: new Set([...state.recalled, event.data.distributionId]) };
      case 'DistributionVoided':
        return { ...state, voided: new Map([...state.voided, [event.data.distributionId, event.data.reference]]) };
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'Distribute': {
        const { ticket, userId, ticketId, distributionId, code, expiresAt, maxClicks, cost, now } = command.data;
        if (!ticket || ticket.ownerId !== userId) throw DISTRIBUTION_REFUSALS.notFound();
        if (ticket.isDuplicate) throw DISTRIBUTION_REFUSALS.duplicate();
        if (state.voided.has(distributionId)) throw DISTRIBUTION_REFUSALS.notMade();
        if (state.current) throw DISTRIBUTION_REFUSALS.distributed();
        return [
          {
            type: 'TicketDistributed',
            data: {
              ticketId,
              distributionId,
              userId,
              accountId: ticket.accountId,
              code,
              expiresAt,
              maxClicks,
              cost,
              at: now,
            },
          },
        ];
      }
      case 'Recall': {
        const { ticketId, distributionId, userId, now } = command.data;
        if (state.recalled.has(distributionId) && state.current?.distributionId !== distributionId) {
          throw DISTRIBUTION_REFUSALS.recalled();
        }
        if (!state.current || state.current.distributionId !== distributionId || state.current.userId !== userId) {
          throw DISTRIBUTION_REFUSALS.noDistribution();
        }
        return [{ type: 'TicketRecalled', data: { ticketId, distributionId, userId, at: now } }];
      }
      case 'Void': {
        const { now, ...voided } = command.data;
        // Made (what was paid for exists) or given up already: nothing to do.
        if (state.made.has(voided.distributionId) || state.voided.has(voided.distributionId)) return [];
        return [{ type: 'DistributionVoided', data: { ...voided, at: now } }];
      }
    }
  },
};
