import type { KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { User } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { DataTable } from '../../../components/ui/data-table';
import { formatCredits, formatDate } from '../../../lib/format';
import { SetCreditsForm } from './set-credits-form';
import { UserActions } from './user-actions';

const COLUMNS = ['User', 'Balance', 'Status', 'Created', 'Credits', 'Actions'] as const;

export interface UsersTableProps {
  users: User[];
  loading: boolean;
  error: string | null;
}

function fullName(user: User): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || '—';
}

/** The admin users table; a row click opens that user's audit log (SPEC.md §2). */
export function UsersTable({ users, loading, error }: UsersTableProps) {
  const navigate = useNavigate();
  const openAudits = (user: User) => void navigate(`/admin/users/${encodeURIComponent(user.id)}/audits`);

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, user: User) => {
    if (event.key === 'Enter') openAudits(user);
  };

  return (
    <DataTable
      columns={COLUMNS}
      rows={users}
      loading={loading}
      error={error}
      emptyText="No users available"
      testIdPrefix="users"
      renderRow={(user) => (
        <tr
          key={user.id}
          data-testid="user-row"
          data-user-id={user.id}
          data-email={user.email}
          data-banned={user.is_banned}
          data-admin={user.is_admin}
          tabIndex={0}
          onClick={() => openAudits(user)}
          onKeyDown={(event) => onRowKeyDown(event, user)}
          className="cursor-pointer hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-none"
        >
          <td className="px-3 py-2 whitespace-nowrap">
            <div className="flex items-center gap-2 font-medium text-slate-900">
              {user.email}
              {user.is_admin ? <Badge tone="indigo">Admin</Badge> : null}
            </div>
            <div className="text-xs text-slate-500" data-testid="user-name">
              {fullName(user)}
            </div>
          </td>
          <td className="px-3 py-3 whitespace-nowrap text-slate-900 tabular-nums" data-testid="user-balance">
            {formatCredits(user.balance)}
          </td>
          <td className="px-3 py-3 whitespace-nowrap" data-testid="user-status">
            {user.is_banned ? <Badge tone="red">Banned</Badge> : <Badge tone="green">Active</Badge>}
          </td>
          <td className="px-3 py-3 whitespace-nowrap text-slate-600">{formatDate(user.created_at)}</td>
          <td className="px-3 py-2 whitespace-nowrap">
            <SetCreditsForm user={user} />
          </td>
          <td className="px-3 py-2 whitespace-nowrap">
            <UserActions user={user} />
          </td>
        </tr>
      )}
    />
  );
}
