import { PageHeader } from '../../components/ui/page-header';
import { useAuthStore } from '../auth/auth.store';
import { TicketsStatsRow } from './components/tickets-stats-row';
import { computeTicketStats } from './ticket-stats';

// Tickets are fetched from GET /v1/tickets in a later issue; until then the overview has none.
const NO_TICKETS = computeTicketStats([]);

/** /dashboard (index): the Tickets Overview (SPEC.md §2). */
export function TicketsOverviewPage() {
  const balance = useAuthStore((s) => s.user?.balance ?? 0);

  return (
    <>
      <PageHeader title="Tickets Overview" subtitle="Tickets can take up to 15 minutes to appear after syncing." />
      <TicketsStatsRow balance={balance} stats={NO_TICKETS} />
      <div className="mt-8 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <p className="text-base font-semibold text-slate-900">No Tickets Found</p>
      </div>
    </>
  );
}
