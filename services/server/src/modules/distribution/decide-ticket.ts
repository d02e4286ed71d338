import { randomBytes } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { EventStore, ReadStreamResult, RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { type Decision, decideOnRead } from '../../shared/event-sourcing/aggregate-handler.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import {
  type TicketDistributionCommand,
  ticketDistributionDecider,
  type TicketDistributionState,
} from './distribution.decider.js';
import {
  type LinkRecipientData,
  type TicketDistributed,
  type TicketDistributionEvent,
  ticketDistributionStream,
} from './distribution.events.js';

const DISTRIBUTION_ID_NAMESPACE = '5b0f6c1e-3a2d-4e8f-9c7b-1d2e3f4a5b6c';

/** 128 random bits: the unguessable part of a link. */
export const newLinkCode = () => randomBytes(16).toString('base64url');

/** A link the request has: made by it before, or just now. */
export type Made = { kind: 'made-before'; ticketId: string; event: TicketDistributed };
/** A link decided on its ticket's stream, to be paid for, then appended at the revision it was decided on. */
export type Fresh = {
  kind: 'new';
  ticketId: string;
  event: TicketDistributed;
  decision: Decision<TicketDistributionState, TicketDistributionEvent>;
};
export type Refused = {
  kind: 'refused';
  ticketId: string;
  distributionId: string;
  error: DomainError;
  /** Paid for and voided: its voiding is the audit log's entry, not a refusal of its own. */
  voided?: boolean;
};
export type TicketDecision = Made | Fresh | Refused;

/** What a request asks of each of its tickets. */
export interface LinkRequest {
  userId: string;
  commandId: string;
  expiresAt: string | null;
  maxClicks: number | null;
  label: string | null;
  /** The hash of the PIN every link of the request gets; null for none. */
  pinHash: string | null;
  /** Whom the links of some of its tickets are for, by ticket id (a ticket absent: nobody named). */
  recipients: ReadonlyMap<string, LinkRecipientData>;
  cost: number;
  at: string;
}

/** A ticket a request asks a link for, with what the tickets' read model says of it (null: not the caller's). */
export interface AskedTicket {
  ticketId: string;
  ticket: { ownerId: string; accountId: string; isDuplicate: boolean } | null;
}

/**
 * Decides each ticket on its stream (all of them read in one round trip): a new link, the link this request made
 * before, or a refusal. A link of this request that was voided (and paid back) is not made again under its old id: the
 * request's next attempt for the ticket has ids of its own, and is paid for anew.
 */
export async function decideTickets(
  store: EventStore,
  tickets: readonly AskedTicket[],
  request: LinkRequest,
): Promise<TicketDecision[]> {
  const streams = await store.readStreams(tickets.map(({ ticketId }) => ticketDistributionStream(ticketId)));
  return tickets.map((asked) => decideTicketOn(streams.get(ticketDistributionStream(asked.ticketId))!, asked, request));
}

function decideTicketOn(read: ReadStreamResult, { ticketId, ticket }: AskedTicket, request: LinkRequest) {
  const { commandId } = request;
  let distributionId = '';
  const attemptOn = (state: TicketDistributionState) => {
    const voidedBefore = [...state.voided.values()].filter((reference) => reference === commandId).length;
    const attempt = voidedBefore === 0 ? commandId : `${commandId}#${voidedBefore}`;
    distributionId = uuidv5(`${attempt}:${ticketId}`, DISTRIBUTION_ID_NAMESPACE);
    const command: TicketDistributionCommand = {
      type: 'Distribute',
      data: {
        ticketId,
        distributionId,
        userId: request.userId,
        ticket,
        code: newLinkCode(),
        expiresAt: request.expiresAt,
        maxClicks: request.maxClicks,
        cost: request.cost,
        label: request.label,
        pinHash: request.pinHash,
        recipient: request.recipients.get(ticketId) ?? null,
        now: request.at,
      },
    };
    return { command, commandId: attempt };
  };
  try {
    const decision = decideOnRead(ticketDistributionDecider, ticketDistributionStream(ticketId), read, attemptOn);
    const event = decision.events[0] as TicketDistributed;
    if (decision.earlier) return { kind: 'made-before', ticketId, event } satisfies Made;
    return { kind: 'new', ticketId, event, decision } satisfies Fresh;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { kind: 'refused', ticketId, distributionId, error: err } satisfies Refused;
  }
}

/** The link as its ticket's stream holds it: the code that works is the one written, whichever copy wrote it. */
export async function storedLink(
  store: EventStore,
  ticketId: string,
  distributionId: string,
): Promise<TicketDistributed> {
  const { events } = await store.readStream(ticketDistributionStream(ticketId));
  const written = events.find(
    (e) => e.type === 'TicketDistributed' && (e.data as TicketDistributed['data']).distributionId === distributionId,
  );
  if (!written) throw new Error(`ticket ${ticketId}: link ${distributionId} is not on its stream`);
  return asDistributed(written);
}

function asDistributed(recorded: RecordedEvent): TicketDistributed {
  return { type: 'TicketDistributed', data: recorded.data as TicketDistributed['data'] };
}
