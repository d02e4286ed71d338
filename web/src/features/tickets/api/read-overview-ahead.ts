import type { QueryClient } from '@tanstack/react-query';
import { accountListQuery } from '../../../lib/account-list';
import { ticketListQuery } from '../../../lib/ticket-list';

/**
 * The Tickets Overview's reads, started with the navigation to it (app/routes.tsx, lib/route-reads.ts): the ticket list
 * (its first page is shown as soon as it comes, the rest follows page by page) and the accounts its filter names. A
 * list already held is read by changes, as the page's own query would when it mounts.
 */
export function readOverviewAhead(client: QueryClient): void {
  void client.prefetchQuery(ticketListQuery);
  void client.prefetchQuery(accountListQuery);
}
