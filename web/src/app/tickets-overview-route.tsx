import { AdminMfaNotice } from '../features/security/components/admin-mfa-notice';
import { TicketsOverviewPage } from '../features/tickets/tickets-overview.page';
import { TopUpButton } from '../features/top-up/top-up-button';

/**
 * The dashboard's index page: the Tickets Overview with the Top Up button of its credits card, and above it, for an
 * admin who must still set up a second factor, what to do before the admin pages work (the page an admin lands on
 * after signing in says so, rather than showing an empty overview). The app composes the features here (a feature
 * imports no other), in a chunk of its own that routes.tsx loads on first visit.
 */
export function TicketsOverviewRoute() {
  return (
    <>
      <AdminMfaNotice />
      <TicketsOverviewPage topUp={<TopUpButton />} />
    </>
  );
}
