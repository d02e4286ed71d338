import { Command } from '@nestjs/cqrs';
import type { DistributionErrorCode } from '@seatlink/contracts';
import { clock } from '../../shared/clock.js';
import type { LinkRecipientData } from './distribution.events.js';

export interface DistributeOutcome {
  /** Tickets that got a link (or had it from this same request before: a retry answers the same links). */
  distributed: Array<{ ticketId: string; distributionId: string; code: string }>;
  refused: Array<{ ticketId: string; code: DistributionErrorCode; message: string }>;
  /** The balance after the request. */
  balance: number;
  /** The last feed position the request wrote (for read-your-writes). */
  position: string | null;
}

/**
 * Turns some of a user's tickets into links that cost credits (POST /v1/tickets/distribute,
 * docs/reference.md "API calls").
 */
export class DistributeTicketsCommand extends Command<DistributeOutcome> {
  constructor(
    readonly input: {
      userId: string;
      ticketIds: readonly string[];
      expiresAt: string | null;
      maxClicks: number | null;
      label: string | null;
      /** The PIN every link gets (hashed before anything is decided); null for none. */
      pin: string | null;
      /** Whom some links are for, by ticket id (each of ticketIds; the others: nobody named). */
      recipients?: ReadonlyMap<string, LinkRecipientData>;
      ip?: string;
      commandId: string;
    },
    readonly now: Date = clock.now(),
  ) {
    super();
  }
}
