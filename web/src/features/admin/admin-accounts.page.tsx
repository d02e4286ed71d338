import { PageHeader } from '../../components/ui/page-header';
import { PlaceholderPanel } from '../../components/ui/placeholder-panel';

/** /admin/accounts: placeholder until this admin page lands. */
export function AdminAccountsPage() {
  return (
    <>
      <PageHeader title="All Accounts" />
      <PlaceholderPanel />
    </>
  );
}
