import { PageHeader } from '../../components/ui/page-header';
import { PlaceholderPanel } from '../../components/ui/placeholder-panel';

/** /dashboard/accounts: placeholder until linked wallet accounts land. */
export function AccountsPage() {
  return (
    <>
      <PageHeader title="Accounts" />
      <PlaceholderPanel />
    </>
  );
}
