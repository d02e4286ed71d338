import { TicketsOverviewPage } from '../features/tickets/tickets-overview.page';
import { TopUpButton } from '../features/top-up/top-up-button';

/**
 * The dashboard's index page: the Tickets Overview with the Top Up button of its credits card. The app composes the
 * two features here (a feature imports no other), in a chunk of its own that routes.tsx loads on first visit.
 */
export function TicketsOverviewRoute() {
  return <TicketsOverviewPage topUp={<TopUpButton />} />;
}
