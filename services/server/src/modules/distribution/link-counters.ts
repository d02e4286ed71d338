import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/database.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { asSubscription, type Subscription } from '../../infra/subscriptions/subscription.js';
import type { LinkUpdated, TicketDistributed, TicketRecalled } from './distribution.events.js';
import { linkCounters } from './distribution.schema.js';

// The facts a claim decides on (`link_counters`), written by the distribution module from its own events: by the
// request that made, edited or recalled a link, at once, and by the link-counters reaction, which applies the same
// events again. Both writes are idempotent and neither touches `clicks`, which only `seatlink_claim_link` changes.

/** Rows per multi-row insert (10 columns each: far under PostgreSQL's parameter limit). */
const CHUNK = 500;

/** What a link is made with, as both its counter and its read-model row keep it. */
export function linkFacts(data: TicketDistributed['data']) {
  return {
    distributionId: data.distributionId,
    code: data.code,
    ticketId: data.ticketId,
    userId: data.userId,
    maxClicks: data.maxClicks,
    expiresAt: data.expiresAt ? new Date(data.expiresAt) : null,
  };
}

/** What a link's counter is made with: its facts, and the hash of its PIN. */
function counterOf(data: TicketDistributed['data']) {
  return { ...linkFacts(data), pinHash: data.pinHash ?? null };
}

/** Makes the counters of links just made (with no clicks); a counter made before is left as it is. */
export async function openLinkCounters(db: Executor, made: ReadonlyArray<TicketDistributed['data']>): Promise<void> {
  const rows = made.map(counterOf);
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insert(linkCounters)
      .values(rows.slice(i, i + CHUNK))
      .onConflictDoNothing();
  }
}

/** Marks links recalled (at the first recall's time): their claims are refused from now on. */
export async function recallLinkCounters(
  db: Executor,
  recalled: ReadonlyArray<Pick<TicketRecalled['data'], 'distributionId' | 'at'>>,
): Promise<void> {
  for (let i = 0; i < recalled.length; i += CHUNK) {
    const values = sql.join(
      recalled.slice(i, i + CHUNK).map((r) => sql`(${r.distributionId}::uuid, ${r.at}::timestamptz)`),
      sql`, `,
    );
    await db.execute(sql`
      update link_counters c set recalled_at = v.at
      from (values ${values}) as v(distribution_id, at)
      where c.distribution_id = v.distribution_id and c.recalled_at is null`);
  }
}

/** An edit of a link's settings as its counter takes it: the settings, and the edit's revision on its ticket's stream. */
export interface CounterSettings {
  distributionId: string;
  revision: number;
  settings: Pick<LinkUpdated['data']['settings'], 'expiresAt' | 'maxClicks'> & { pinHash?: string | null };
}

/**
 * Writes edits of links' settings (their expiry, click limit and PIN: what a claim decides on), each only over an older
 * edit: applied again, or out of order, an edit never puts back settings edited since. A new PIN starts its count of
 * wrong ones afresh (its window of wrong PINs too); an edit recorded before links had PINs leaves the PIN as it is.
 */
export async function editLinkCounters(db: Executor, edits: readonly CounterSettings[]): Promise<void> {
  for (let i = 0; i < edits.length; i += CHUNK) {
    const values = sql.join(
      edits
        .slice(i, i + CHUNK)
        .map(
          (e) =>
            sql`(${e.distributionId}::uuid, ${e.revision}::integer, ${e.settings.expiresAt}::timestamptz, ${e.settings.maxClicks}::integer, ${'pinHash' in e.settings}::boolean, ${e.settings.pinHash ?? null}::text)`,
        ),
      sql`, `,
    );
    await db.execute(sql`
      update link_counters c
      set expires_at = v.expires_at, max_clicks = v.max_clicks, settings_revision = v.revision,
          pin_hash = case when v.has_pin_setting then v.pin_hash else c.pin_hash end,
          pin_failures = case when v.has_pin_setting and v.pin_hash is distinct from c.pin_hash then 0
                              else c.pin_failures end,
          pin_failures_since = case when v.has_pin_setting and v.pin_hash is distinct from c.pin_hash then null
                                    else c.pin_failures_since end
      from (values ${values}) as v(distribution_id, revision, expires_at, max_clicks, has_pin_setting, pin_hash)
      where c.distribution_id = v.distribution_id and c.settings_revision < v.revision`);
  }
}

/**
 * A link's counter, locked until the transaction ends (claims of the link wait meanwhile): its ticket, owner and the
 * clicks it has given. Null for no such link.
 */
export async function lockLinkCounter(
  tx: Executor,
  distributionId: string,
): Promise<{ ticketId: string; userId: string; clicks: number } | null> {
  const [row] = await tx
    .select({ ticketId: linkCounters.ticketId, userId: linkCounters.userId, clicks: linkCounters.clicks })
    .from(linkCounters)
    .where(eq(linkCounters.distributionId, distributionId))
    .for('update');
  return row ?? null;
}

/** The ticket of a link, as its counter has it; null for no such link. */
export async function ticketOfLink(db: Executor, distributionId: string): Promise<string | null> {
  const [row] = await db
    .select({ ticketId: linkCounters.ticketId })
    .from(linkCounters)
    .where(eq(linkCounters.distributionId, distributionId))
    .limit(1);
  return row?.ticketId ?? null;
}

/**
 * Writes the counters of the links made, edited and recalled once more, from the events: a request that died between
 * its append and its own write (or whose write failed) never leaves a link that answers "not found", nor one that a
 * recall did not stop, nor one that holds to settings its owner changed. From the beginning of the feed the first time, so every link ever made has its counter. Not
 * rebuilt (not a read model): the counts stay.
 */
export const linkCountersReaction: Subscription = asSubscription({
  name: 'link-counters',
  kind: 'reaction',
  startFrom: 'beginning',
  handles: ['TicketDistributed', 'TicketRecalled', 'LinkUpdated'],
  async apply(events: readonly RecordedEvent[], { tx }) {
    const made: Array<TicketDistributed['data']> = [];
    const recalled: Array<TicketRecalled['data']> = [];
    const edited: CounterSettings[] = [];
    for (const recorded of events) {
      if (recorded.type === 'TicketDistributed') made.push(recorded.data as TicketDistributed['data']);
      else if (recorded.type === 'TicketRecalled') recalled.push(recorded.data as TicketRecalled['data']);
      else if (recorded.type === 'LinkUpdated') {
        const { distributionId, settings } = recorded.data as LinkUpdated['data'];
        edited.push({ distributionId, revision: recorded.revision, settings });
      }
    }
    // A link is edited or recalled only after it was made (later in the feed): made first is the feed's order. Edits
    // are written each over an older one only, so their order among themselves does not matter.
    await openLinkCounters(tx, made);
    await editLinkCounters(tx, edited);
    await recallLinkCounters(tx, recalled);
  },
});

/**
 * The click limit each link holds now (null: none), from its counter row: what claims are checked against, ahead of
 * any read model. A link not found is left out.
 */
export async function linkClickLimits(db: Executor, ids: readonly string[]): Promise<Map<string, number | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: linkCounters.distributionId, maxClicks: linkCounters.maxClicks })
    .from(linkCounters)
    .where(inArray(linkCounters.distributionId, [...ids]));
  return new Map(rows.map((r) => [r.id, r.maxClicks]));
}
