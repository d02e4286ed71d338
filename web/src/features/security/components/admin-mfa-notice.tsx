import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { ShieldIcon } from '../../../components/ui/icons';
import { useSessionStore } from '../../../lib/session.store';
import { mustEnrolForAdmin, TWO_FACTOR_SETUP } from '../admin-mfa';
import { mfaStatusQuery } from '../mfa.queries';

/**
 * What an admin without a second factor must do before the admin pages work (where the server requires one,
 * ADMIN_MFA=required): set one up on Settings. Shown on the admin pages in their place, and on the dashboard an admin
 * lands on after signing in; nothing for anyone else (whose dashboard does not even ask).
 */
export function AdminMfaNotice() {
  const isAdmin = useSessionStore((s) => s.user?.is_admin === true);
  const { data } = useQuery({ ...mfaStatusQuery(), enabled: isAdmin });
  if (!mustEnrolForAdmin(data)) return null;
  return (
    <section
      aria-labelledby="admin-mfa-title"
      className="mb-6 flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900 sm:p-5"
      data-testid="admin-mfa-required"
    >
      <ShieldIcon className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="space-y-2">
        <h2 id="admin-mfa-title" className="font-semibold">
          Set up two-factor authentication to use the admin pages
        </h2>
        <p className="text-sm">
          Seatlink asks admins for a second factor: add an authenticator app (or a passkey) on Settings. Until then the
          admin pages — users, invites, accounts and duplicate tickets — stay closed to you.
        </p>
        <Link
          to={TWO_FACTOR_SETUP}
          className="inline-flex items-center rounded-lg bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Set up an authenticator app
        </Link>
      </div>
    </section>
  );
}
