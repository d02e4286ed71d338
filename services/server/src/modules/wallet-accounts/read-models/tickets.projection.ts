import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import { asSubscription } from '../../../infra/subscriptions/subscription.js';
import { cleanPassDetails } from '../pass-text.js';
import { dedupeKeyOf, type WalletAccountEvent } from '../wallet-account.events.js';
import { tickets } from '../wallet-accounts.schema.js';

/** The rows of `tickets`. */
const ticketRows = rowProjection<typeof tickets, WalletAccountEvent>({
  name: 'tickets',
  table: tickets,
  key: 'id',
  handles: ['TicketDiscovered', 'TicketChanged', 'TicketGone'],
  keyOf: (event) =>
    event.type === 'TicketDiscovered' || event.type === 'TicketChanged' || event.type === 'TicketGone'
      ? event.data.ticketId
      : null,
  evolve(row, event) {
    switch (event.type) {
      case 'TicketDiscovered':
      case 'TicketChanged': {
        const pass = cleanPassDetails(event.data.pass);
        const at = new Date(event.data.at);
        return {
          id: event.data.ticketId,
          accountId: event.data.accountId,
          userId: event.data.userId,
          passId: pass.passId,
          dedupeKey: event.type === 'TicketDiscovered' ? event.data.dedupeKey : (row?.dedupeKey ?? dedupeKeyOf(pass)),
          title: pass.title,
          subtitle: pass.subtitle,
          logo: pass.logo,
          saveUrl: pass.saveUrl ?? null,
          venueName: pass.venueName,
          section: pass.section,
          row: pass.row,
          seat: pass.seat,
          nextGame: pass.nextGame,
          nextGameDate: pass.nextGameDate,
          createdAt: row?.createdAt ?? at,
          updatedAt: at,
          // Stamped by the database as the row is written (read-model-versions.ts): this value is never kept.
          version: row?.version ?? 0,
        };
      }
      case 'TicketGone':
        return null;
      default:
        return row;
    }
  },
  live: (after, before) => {
    const row = after ?? before;
    if (!row) return [];
    const payload = { account_id: row.accountId, user_id: row.userId };
    return [
      { to: { userId: row.userId }, event: 'tickets.updated', payload },
      { to: 'admins', event: 'tickets.updated', payload },
    ];
  },
});

/**
 * `tickets`: the tickets the linked accounts hold now. A ticket that left its wallet leaves the table, and the database
 * keeps it in `removed_tickets` (a trigger: wallet-accounts.routines.ts), which a rebuild empties with it. The pass's
 * text is cleaned again here (pass-text.ts), so a rebuild from older events shows no control or bidi formatting
 * character.
 */
export const ticketsProjection = asSubscription({ ...ticketRows, tables: ['tickets', 'removed_tickets'] });
