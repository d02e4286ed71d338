import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { LinkClaimant, LinkState, TicketDistribution } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, queryRows } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { DISTRIBUTION_REFUSALS } from './distribution.decider.js';
import { type LinkRecipientData, type LinkSettings, type LinkUpdated, refusalStream } from './distribution.events.js';
import { recordRefusals } from './distribution-refusals.js';
import { editLinkCounters, lockLinkCounter } from './link-counters.js';
import { linkUrl } from './link-url.js';
import { claimantOf } from './read-models/links.queries.js';
import type { PasswordHasher } from '../identity/index.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';
import { clock } from '../../shared/clock.js';
import { checkLinkExpiry } from './link-expiry.js';

/** The link after an edit, as the claim path now holds it. */
export interface UpdatedLink {
  ticketId: string;
  code: string;
  state: LinkState;
  clicks: number;
  settings: LinkSettings;
  /** Who made its last click (null before the first). */
  claimedBy: LinkClaimant | null;
  /** The feed position of the edit (null: nothing changed, or the same request again). */
  position: string | null;
}

/**
 * The settings an edit request changes, from its body (absent: unchanged; null: removed). A PIN is hashed here, once
 * for however many links the request edits: the decider decides on the hash and never sees the PIN. An expiry out of
 * its window (checkLinkExpiry, at `now`) is a 400 before any link is edited.
 */
export async function changesOf(
  body: {
    expiry_date?: string | null;
    max_clicks?: number | null;
    label?: string | null;
    pin?: string | null;
    recipient?: LinkRecipientData | null;
  },
  hasher: PasswordHasher,
  now: Date = clock.now(),
): Promise<Partial<LinkSettings>> {
  checkLinkExpiry(body.expiry_date, now);
  return {
    ...(body.expiry_date !== undefined ? { expiresAt: body.expiry_date } : {}),
    ...(body.max_clicks !== undefined ? { maxClicks: body.max_clicks } : {}),
    ...(body.label !== undefined ? { label: body.label } : {}),
    ...(body.pin !== undefined ? { pinHash: body.pin === null ? null : await hasher.hash(body.pin) } : {}),
    ...(body.recipient !== undefined ? { recipient: body.recipient } : {}),
  };
}

/** A distribute request's recipients by ticket (an entry with neither a name nor an e-mail names nobody). */
export function recipientsByTicket(
  recipients: ReadonlyArray<{ ticket_id: string; name: string | null; email: string | null }>,
): Map<string, LinkRecipientData> {
  return new Map(
    recipients
      .filter((r) => r.name !== null || r.email !== null)
      .map((r) => [r.ticket_id, { name: r.name, email: r.email }]),
  );
}

/** The link as the owner's views show it after an edit. */
export function editedDistribution(
  distributionId: string,
  updated: UpdatedLink,
  dashboardUrl: string,
): TicketDistribution {
  return {
    distribution_id: distributionId,
    id: distributionId,
    link: linkUrl(dashboardUrl, updated.code),
    clicks: updated.clicks,
    max_clicks: updated.settings.maxClicks,
    expiry: updated.settings.expiresAt,
    label: updated.settings.label,
    has_pin: updated.settings.pinHash !== null,
    pin_locked: false,
    claimed_by: updated.claimedBy,
    recipient: updated.settings.recipient ?? null,
  };
}

/** Changes a live link's settings (PATCH /v1/distributions/{id}): see UpdateLinkFlow. */
export class UpdateLinkCommand extends Command<UpdatedLink> {
  constructor(
    readonly input: {
      userId: string;
      distributionId: string;
      changes: Partial<LinkSettings>;
      ip?: string;
      bulk?: boolean;
      commandId: string;
    },
    readonly now: Date = clock.now(),
  ) {
    super();
  }
}

/**
 * An edit, in one transaction: the link's counter is locked (its claims wait), the ticket's stream decides the edit on
 * the clicks the counter has given (a limit never goes below them), the edit is appended and the counter takes the new
 * expiry and limit — so the claim after the commit holds to them, and none between counts past a lowered limit. A
 * refusal goes to the request's refusal log (the audit log's FAILED entry) before it is answered. The same request
 * again (its Idempotency-Key) appends nothing and answers the link as it is.
 */
@CommandHandler(UpdateLinkCommand)
export class UpdateLinkFlow implements ICommandHandler<UpdateLinkCommand> {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute({ input, now }: UpdateLinkCommand): Promise<UpdatedLink> {
    const { userId, distributionId, commandId } = input;
    const at = now.toISOString();
    const meta = { actorId: userId, ip: input.ip, ...(input.bulk ? { bulk: true } : {}), commandId };
    let ticketId: string | null = null;
    try {
      const after: Array<() => void> = [];
      const updated = await this.database.db.transaction(async (tx) => {
        const counter = await lockLinkCounter(tx, distributionId);
        if (!counter) throw DISTRIBUTION_REFUSALS.noDistribution();
        ticketId = counter.ticketId;
        const result = await this.commandBus.execute(
          new TicketDistributionCommandMessage(
            {
              type: 'Update',
              data: {
                ticketId,
                distributionId,
                userId,
                changes: input.changes,
                clicks: counter.clicks,
                now: at,
              },
            },
            meta,
            this.store.withinTransaction(tx, (work) => after.push(work)),
          ),
        );
        const edit = result.events.find((e): e is LinkUpdated => e.type === 'LinkUpdated');
        if (edit && !result.repeated && result.append) {
          await editLinkCounters(tx, [
            { distributionId, revision: result.append.nextRevision, settings: edit.data.settings },
          ]);
        }
        const [link] = await queryRows<{
          code: string;
          clicks: number;
          state: LinkState;
          last_click_at: Date | string | null;
          last_claim_name: string | null;
          last_claim_device: string | null;
        }>(
          tx,
          sql`select c.code, c.clicks,
                     seatlink_link_state(c.recalled_at is not null, exists (select 1 from tickets t where t.id = c.ticket_id),
                                         c.expires_at, c.max_clicks, c.clicks, now()) as state,
                     l.last_click_at, l.last_claim_name, l.last_claim_device
              from link_counters c left join links l on l.distribution_id = c.distribution_id
              where c.distribution_id = ${distributionId}`,
        );
        // The link's settings now: the edit's, or (nothing changed, or this request again) the stream's as read.
        const current = result.state.current;
        const settings: LinkSettings =
          edit && !result.repeated
            ? edit.data.settings
            : {
                expiresAt: current?.expiresAt ?? null,
                maxClicks: current?.maxClicks ?? null,
                label: current?.label ?? null,
                pinHash: current?.pinHash ?? null,
                recipient: current?.recipient ?? null,
              };
        return {
          ticketId,
          code: link!.code,
          state: link!.state,
          clicks: link!.clicks,
          settings,
          claimedBy: claimantOf({
            lastClickAt: link!.last_click_at,
            lastClaimName: link!.last_claim_name,
            lastClaimDevice: link!.last_claim_device,
          }),
          position: result.position,
        };
      });
      for (const work of after) work();
      return updated;
    } catch (err) {
      if (err instanceof DomainError) {
        const refused = {
          type: 'LinkUpdateRefused' as const,
          data: { ticketId, distributionId, userId, code: err.code, reason: err.message, at },
        };
        await recordRefusals(this.store, refusalStream(userId, commandId), commandId, [refused], meta);
      }
      throw err;
    }
  }
}
