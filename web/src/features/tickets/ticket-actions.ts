import type { QueryClient } from '@tanstack/react-query';
import {
  MAX_BULK_LINKS,
  MAX_DISTRIBUTE_TICKETS,
  type BulkLinkFailure,
  type DistributionFailure,
  type Ticket,
  type TicketDistribution,
} from '@seatlink/contracts';
import { ApiError, errorMessage, newIdempotencyKey, withRetries } from '../../lib/api-client';
import { useCreditsStore } from '../../lib/credits.store';
import {
  distributeBody,
  DISTRIBUTION_TEXTS,
  linkChanges,
  madeLink,
  type DistributionSettings,
} from '../../lib/distribution';
import { liveRefresh } from '../../lib/live-refresh';
import { useSessionStore } from '../../lib/session.store';
import { applyLinkRecalled, applyTicketLinks, TICKET_LIST_KEY, type TicketList } from '../../lib/ticket-list';
import { distributeTickets } from './api/distribute-tickets';
import { getMe } from './api/get-me';
import { recallDistribution } from './api/recall-distribution';
import { recallDistributions } from './api/recall-distributions';
import { updateDistribution } from './api/update-distribution';
import { updateDistributions } from './api/update-distributions';
import type { TicketsUiStore } from './tickets.store';

/**
 * What the overview changes on the server (docs/reference.md "Ticket and link transitions"): distributing the selected
 * tickets and recalling a link. Each shows its result at once in the ticket list, then has the list read again (by
 * changes) and the user re-read (balance, distribution cost). Used as TanStack mutations (hooks/use-ticket-actions.ts).
 */

type UiStore = Pick<TicketsUiStore, 'setDistributionProblem' | 'setRecallProblem' | 'setSelected'>;

/** `count`: the links made (when a call failed, by the parts of a big selection sent before it). */
export type DistributeOutcome =
  | { ok: true; count: number; failed: DistributionFailure[] }
  | { ok: false; message: string; failed: DistributionFailure[]; count: number };

export type RecallOutcome = { ok: true } | { ok: false; message: string };
export type EditOutcome = { ok: true; changed: boolean } | { ok: false; message: string };
/** Many links recalled or edited: how many were (before a call failed, too), and those refused with why. */
export type BulkOutcome =
  | { ok: true; done: number; failed: BulkLinkFailure[] }
  | { ok: false; message: string; failed: BulkLinkFailure[]; done: number };

/**
 * Sends `ids` in parts of at most `size`, one call after another (a call takes at most MAX_DISTRIBUTE_TICKETS tickets
 * or MAX_BULK_LINKS links), each part with an Idempotency-Key of its own for it and its retries. `took` shows a part's
 * answer; `refused` is told of a part that failed and says whether the next parts are still sent. Answers whether
 * every part was sent.
 */
async function inParts<Answer>(
  ids: readonly string[],
  size: number,
  send: (part: string[], key: string) => Promise<Answer>,
  took: (answer: Answer) => void,
  refused: (error: unknown) => boolean,
): Promise<boolean> {
  for (let start = 0; start < ids.length; start += size) {
    const part = ids.slice(start, start + size);
    const key = newIdempotencyKey();
    try {
      took(await withRetries(() => send(part, key)));
    } catch (error) {
      if (!refused(error)) return false;
    }
  }
  return true;
}

/**
 * A refusal of a whole part that says why for each of its tickets (404: none is the user's or can have a link; 409:
 * none is free of a link): the next parts are still sent. Any other failure (no credits, the server or the network
 * failing) ends the run: the parts after it are not sent, and their tickets stay ticked.
 */
function refusedEachTicket(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 409) && failuresOf(error).length > 0;
}

/** The failures a refused distribute call lists in its body (402/404/409 carry `failed`). */
function failuresOf(error: unknown): DistributionFailure[] {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return [];
  const failed = (error.body as { failed?: unknown }).failed;
  return Array.isArray(failed) ? (failed as DistributionFailure[]) : [];
}

/** The links a refused bulk call lists in its body. */
function bulkFailuresOf(error: unknown): BulkLinkFailure[] {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return [];
  const failed = (error.body as { failed?: unknown }).failed;
  return Array.isArray(failed) ? (failed as BulkLinkFailure[]) : [];
}

/** A refused call's `balance`, when it says one. */
function balanceOf(error: unknown): number | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return null;
  const balance = (error.body as { balance?: unknown }).balance;
  return typeof balance === 'number' ? balance : null;
}

function applyBalance(balance: number | null) {
  const userId = useSessionStore.getState().user?.id;
  if (userId && balance !== null) useCreditsStore.getState().apply(userId, balance);
}

/** After a change: the list read again by changes, and the signed-in user (balance, distribution cost). */
function readAgain(client: QueryClient) {
  liveRefresh(client).refresh(TICKET_LIST_KEY, { now: true });
  void getMe()
    .then((user) => useSessionStore.getState().userChanged(user))
    // The live balance push and the next status check still bring it.
    .catch(() => undefined);
}

/**
 * POST /v1/tickets/distribute for `ticketIds` with the modal's settings, in parts of MAX_DISTRIBUTE_TICKETS (inParts).
 * Tickets that got a link show it at once and are unticked; refusals are kept for the problem box.
 */
export async function distribute(
  client: QueryClient,
  ui: UiStore,
  ticketIds: readonly string[],
  settings: DistributionSettings,
): Promise<DistributeOutcome> {
  const ids = [...new Set(ticketIds)];
  if (ids.length === 0) {
    const problem = { message: DISTRIBUTION_TEXTS.noValidTickets, failed: [] };
    ui.setDistributionProblem(problem);
    return { ok: false, ...problem, count: 0 };
  }
  ui.setDistributionProblem(null);
  const made = new Map<string, TicketDistribution>();
  const failed: DistributionFailure[] = [];
  let balance: number | null = null;
  /** Why the last refused part was refused. */
  let refused: string | null = null;
  try {
    const sentAll = await inParts(
      ids,
      MAX_DISTRIBUTE_TICKETS,
      (part, key) => distributeTickets(distributeBody(part, settings), key),
      (answer) => {
        for (const d of answer.distributions) made.set(d.ticket_id, madeLink(d, settings));
        failed.push(...answer.failed);
        balance = answer.balance;
      },
      (error) => {
        failed.push(...failuresOf(error));
        balance = balanceOf(error) ?? balance;
        refused = errorMessage(error, DISTRIBUTION_TEXTS.distributeFailed);
        return refusedEachTicket(error);
      },
    );
    applyTicketLinks(client, made);
    ui.setSelected([...made.keys()], false);
    applyBalance(balance);
    if (!sentAll || made.size === 0) {
      const problem = { message: refused ?? DISTRIBUTION_TEXTS.distributeFailed, failed };
      ui.setDistributionProblem(problem);
      return { ok: false, ...problem, count: made.size };
    }
    ui.setDistributionProblem(failed.length > 0 ? { message: DISTRIBUTION_TEXTS.distributeFailed, failed } : null);
    return { ok: true, count: made.size, failed };
  } finally {
    readAgain(client);
  }
}

function ticketOf(client: QueryClient, ticketId: string): Ticket | undefined {
  return client.getQueryData<TicketList>(TICKET_LIST_KEY)?.tickets.find((t) => t.id === ticketId);
}

/** POST /v1/distributions/{id}/recall for the ticket's link; its link leaves the ticket at once. */
export async function recall(client: QueryClient, ui: UiStore, ticketId: string): Promise<RecallOutcome> {
  const distributionId = ticketOf(client, ticketId)?.distribution?.distribution_id;
  if (!distributionId) {
    ui.setRecallProblem({ ticketId, message: DISTRIBUTION_TEXTS.recallFailed });
    return { ok: false, message: DISTRIBUTION_TEXTS.recallFailed };
  }
  ui.setRecallProblem(null);
  const key = newIdempotencyKey();
  try {
    await withRetries(() => recallDistribution(distributionId, key));
    applyLinkRecalled(client, ticketId, distributionId);
    return { ok: true };
  } catch (error) {
    const message = errorMessage(error, DISTRIBUTION_TEXTS.recallFailed);
    ui.setRecallProblem({ ticketId, message });
    return { ok: false, message };
  } finally {
    readAgain(client);
  }
}

/**
 * PATCH /v1/distributions/{id} with what the Edit Link modal changed (nothing changed: nothing is sent). The ticket
 * shows the link as the answer has it at once.
 */
export async function editLink(
  client: QueryClient,
  ticketId: string,
  settings: DistributionSettings,
): Promise<EditOutcome> {
  const link = ticketOf(client, ticketId)?.distribution;
  if (!link) return { ok: false, message: DISTRIBUTION_TEXTS.updateFailed };
  const changes = linkChanges(link, settings);
  if (Object.keys(changes).length === 0) return { ok: true, changed: false };
  const key = newIdempotencyKey();
  try {
    const answer = await withRetries(() => updateDistribution(link.id, changes, key));
    applyTicketLinks(client, new Map([[ticketId, answer.distribution]]));
    return { ok: true, changed: true };
  } catch (error) {
    return { ok: false, message: errorMessage(error, DISTRIBUTION_TEXTS.updateFailed) };
  } finally {
    liveRefresh(client).refresh(TICKET_LIST_KEY, { now: true });
  }
}

/** The live links of these tickets, by distribution id. */
function linksOf(
  client: QueryClient,
  ticketIds: readonly string[],
): Map<string, { ticketId: string; link: TicketDistribution }> {
  const wanted = new Set(ticketIds);
  const links = new Map<string, { ticketId: string; link: TicketDistribution }>();
  for (const ticket of client.getQueryData<TicketList>(TICKET_LIST_KEY)?.tickets ?? []) {
    if (wanted.has(ticket.id) && ticket.distribution)
      links.set(ticket.distribution.distribution_id, { ticketId: ticket.id, link: ticket.distribution });
  }
  return links;
}

/**
 * A bulk call on many links, in parts of MAX_BULK_LINKS (inParts): `send` sends one part with its Idempotency-Key, and
 * `took` shows its answer and says how many links it changed. A part that fails ends the run: what the parts before it
 * did is said with the failure.
 */
async function bulkInParts<Answer extends { failed: BulkLinkFailure[] }>(
  distributionIds: readonly string[],
  send: (part: string[], key: string) => Promise<Answer>,
  took: (answer: Answer) => number,
  fallback: string,
): Promise<BulkOutcome> {
  let done = 0;
  const failed: BulkLinkFailure[] = [];
  let message = fallback;
  const sentAll = await inParts(
    distributionIds,
    MAX_BULK_LINKS,
    send,
    (answer) => {
      done += took(answer);
      failed.push(...answer.failed);
    },
    (error) => {
      failed.push(...bulkFailuresOf(error));
      message = errorMessage(error, fallback);
      return false;
    },
  );
  return sentAll ? { ok: true, done, failed } : { ok: false, message, failed, done };
}

/**
 * POST /v1/distributions/recall for the links of the selected tickets: those recalled leave their tickets at once and
 * are unticked; those refused are listed with why.
 */
export async function recallLinks(
  client: QueryClient,
  ui: UiStore,
  ticketIds: readonly string[],
): Promise<BulkOutcome> {
  const links = linksOf(client, ticketIds);
  if (links.size === 0) return { ok: false, message: DISTRIBUTION_TEXTS.recallFailedMany, failed: [], done: 0 };
  try {
    return await bulkInParts(
      [...links.keys()],
      (part, key) => recallDistributions({ distribution_ids: part }, key),
      (answer) => {
        for (const { ticket_id: ticketId, distribution_id: distributionId } of answer.recalled) {
          applyLinkRecalled(client, ticketId, distributionId);
        }
        ui.setSelected(
          answer.recalled.map((r) => r.ticket_id),
          false,
        );
        return answer.recalled.length;
      },
      DISTRIBUTION_TEXTS.recallFailedMany,
    );
  } finally {
    readAgain(client);
  }
}

/**
 * PATCH /v1/distributions with the settings ticked in the modal (and the recipients pasted), for the links of the
 * selected tickets: those changed show it at once; those refused are listed with why.
 */
export async function editLinks(
  client: QueryClient,
  ticketIds: readonly string[],
  settings: DistributionSettings,
  choice: { expiry: boolean; limit: boolean; label: boolean; pin: boolean },
): Promise<BulkOutcome> {
  const links = linksOf(client, ticketIds);
  if (links.size === 0) return { ok: false, message: DISTRIBUTION_TEXTS.updateFailed, failed: [], done: 0 };
  const changes = {
    ...(choice.expiry ? { expiry_date: settings.expiryDate } : {}),
    ...(choice.limit ? { max_clicks: settings.maxClicks } : {}),
    ...(choice.label ? { label: settings.label } : {}),
    ...(choice.pin ? { pin: settings.pin ?? null } : {}),
  };
  // Whom the links the pasted lines reach are for, each part its own (by link, from the tickets').
  const recipientsOf = (part: readonly string[]) =>
    part.flatMap((id) => {
      const recipient = settings.recipients?.[links.get(id)!.ticketId];
      return recipient ? [{ distribution_id: id, ...recipient }] : [];
    });
  // Only recipients change: the links no line reaches are not sent (a part of them alone would change nothing).
  const ids = [...links.keys()].filter((id) => Object.keys(changes).length > 0 || recipientsOf([id]).length > 0);
  try {
    return await bulkInParts(
      ids,
      (part, key) => {
        const recipients = recipientsOf(part);
        return updateDistributions(
          { distribution_ids: part, ...changes, ...(recipients.length > 0 ? { recipients } : {}) },
          key,
        );
      },
      (answer) => {
        applyTicketLinks(client, new Map(answer.updated.map((u) => [u.ticket_id, u.distribution])));
        return answer.updated.length;
      },
      DISTRIBUTION_TEXTS.updateFailed,
    );
  } finally {
    liveRefresh(client).refresh(TICKET_LIST_KEY, { now: true });
  }
}
