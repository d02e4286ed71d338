import { useEffect } from 'react';
import { PageHeader } from '../../components/ui/page-header';
import { useAdminInvitesStore } from './admin-invites.store';
import { InviteForm } from './components/invite-form';
import { InvitesTable } from './components/invites-table';

/** /admin/invites (SPEC.md §2 "Admin invite codes page"): generate form and the list of codes. */
export function InvitesPage() {
  const inviteCodes = useAdminInvitesStore((s) => s.inviteCodes);
  const loading = useAdminInvitesStore((s) => s.loading);
  const error = useAdminInvitesStore((s) => s.error);
  const fetchInvites = useAdminInvitesStore((s) => s.fetchInvites);

  useEffect(() => {
    void fetchInvites();
  }, [fetchInvites]);

  return (
    <>
      <PageHeader title="Invite Codes" subtitle="Registration is by invitation: each code admits up to its max uses." />
      <InviteForm />
      <InvitesTable inviteCodes={inviteCodes} loading={loading} error={error} />
    </>
  );
}
