import { PageHeader } from '../../components/ui/page-header';
import { PlaceholderPanel } from '../../components/ui/placeholder-panel';

/** /admin/duplicate-tickets: placeholder until this admin page lands. */
export function DuplicateTicketsPage() {
  return (
    <>
      <PageHeader title="Duplicate Tickets" />
      <PlaceholderPanel />
    </>
  );
}
