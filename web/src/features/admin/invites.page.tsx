import { PageHeader } from '../../components/ui/page-header';
import { PlaceholderPanel } from '../../components/ui/placeholder-panel';

/** /admin/invites: placeholder until this admin page lands. */
export function InvitesPage() {
  return (
    <>
      <PageHeader title="Invite Codes" />
      <PlaceholderPanel />
    </>
  );
}
