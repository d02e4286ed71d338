import { Link, useParams } from 'react-router-dom';
import { PlaceholderPanel } from '../../components/ui/placeholder-panel';
import { useAdminUsersStore } from './admin-users.store';

/** /admin/users/{userId}/audits: placeholder until the audit log lands (SPEC.md §2 "User audit log"). */
export function UserAuditLogPage() {
  const { userId } = useParams();
  const email = useAdminUsersStore((s) => s.users.find((u) => u.id === userId)?.email);

  return (
    <>
      <Link
        to="/admin/users"
        className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500"
      >
        <span aria-hidden="true">←</span> Back
      </Link>
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">User Audit Log</h1>
        {email ? (
          <p className="mt-1 text-sm text-slate-500" data-testid="audit-user-email">
            {email}
          </p>
        ) : null}
      </div>
      <PlaceholderPanel />
    </>
  );
}
