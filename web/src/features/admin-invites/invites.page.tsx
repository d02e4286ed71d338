import { PageHeader } from '../../components/ui/page-header';
import { InviteForm } from './components/invite-form';
import { InvitesTable } from './components/invites-table';
import { useAdminInvites } from './use-admin-invites';

/** /admin/invites (docs/reference.md "Admin screens"): generate form and the list of codes. */
export function InvitesPage() {
  const { inviteCodes, loading, error } = useAdminInvites();

  return (
    <>
      <PageHeader title="Invite Codes" subtitle="Registration is by invitation: each code admits up to its max uses." />
      <InviteForm />
      <InvitesTable inviteCodes={inviteCodes} loading={loading} error={error} />
    </>
  );
}
