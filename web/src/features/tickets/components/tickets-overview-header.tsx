import { PageHeader } from '../../../components/ui/page-header';

/**
 * The Tickets Overview's heading (docs/reference.md "Tickets Overview screen"), also painted with the page's HTML
 * (app/first-screen.tsx).
 */
export function TicketsOverviewHeader() {
  return <PageHeader title="Tickets Overview" subtitle="Tickets can take up to 15 minutes to appear after syncing." />;
}
