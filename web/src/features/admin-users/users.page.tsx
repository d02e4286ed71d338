import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { UsersIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { StatCard } from '../../components/ui/stat-card';
import { Pager } from '../../components/ui/pager';
import { UsersTable } from './components/users-table';
import { useAdminUsers } from './use-admin-users';

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * /admin/users (docs/reference.md "Admin screens"). The page number lives in the URL (?page=N); a user's row changed
 * elsewhere (credits, ban: `admin.user.updated`) reads the page again (app/realtime-bridge.tsx).
 */
export function AdminUsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = readPage(searchParams.get('page'));
  const { users, pagination, newUsersLast30Days, loading, error } = useAdminUsers(page);

  const goToPage = useCallback(
    (next: number) => setSearchParams(next > 1 ? { page: String(next) } : {}),
    [setSearchParams],
  );

  return (
    <>
      <PageHeader title="Users" />
      <div className="mb-6 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Users" value={pagination.total} valueTestId="total-users" icon={<UsersIcon />} />
        <StatCard
          label="New Users (last 30 days)"
          value={newUsersLast30Days}
          valueTestId="new-users-count"
          icon={<UsersIcon />}
        />
      </div>
      <UsersTable users={users} loading={loading} error={error} />
      {users.length > 0 ? <Pager pagination={pagination} onPage={goToPage} /> : null}
    </>
  );
}
