import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import type { PassEvent } from '../wallet-account.events.js';
import { passGroups } from '../wallet-accounts.schema.js';

/**
 * `pass_groups`: who holds each pass, in claim order. The first holder is the master; the others are duplicates,
 * until the master lets go and the next one takes its place.
 */
export const passGroupsProjection = rowProjection<typeof passGroups, PassEvent>({
  name: 'pass-groups',
  table: passGroups,
  key: 'dedupeKey',
  handles: ['PassClaimed', 'PassReleased'],
  keyOf: (event) => event.data.dedupeKey,
  evolve(row, event) {
    const holders = row?.holders ?? [];
    const next =
      event.type === 'PassClaimed'
        ? holders.includes(event.data.ticketId)
          ? holders
          : [...holders, event.data.ticketId]
        : holders.filter((t) => t !== event.data.ticketId);
    if (next.length === 0) return null;
    // The version is stamped by the database as the row is written (read-model-versions.ts).
    return { dedupeKey: event.data.dedupeKey, holders: next, masterTicketId: next[0]!, version: row?.version ?? 0 };
  },
});
