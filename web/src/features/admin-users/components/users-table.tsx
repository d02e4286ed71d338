import type { KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
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

/**
 * The admin users table; a row click opens that user's audit log (docs/reference.md "Admin screens"). Sized to show
 * every action without scrolling in the 960 px the frame leaves at a 1280 px window (long addresses are cut short,
 * whole in their tooltip); narrower, the table scrolls inside its own box, never the page; on a phone each user is a
 * card.
 */
export function UsersTable({ users, loading, error }: UsersTableProps) {
  const navigate = useNavigate();
  // The audit log page names the user from this navigation's state (features do not read each other's stores).
  const auditsPath = (user: User) => `/admin/users/${encodeURIComponent(user.id)}/audits`;
  const openAudits = (user: User) => void navigate(auditsPath(user), { state: { email: user.email } });

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
          <td className="stack-full px-3 py-2 whitespace-nowrap">
            <div className="flex items-center gap-2 font-medium text-slate-900">
              {/* A real link to the audit log too: it opens in a new tab, and reads as a link. */}
              <Link
                to={auditsPath(user)}
                state={{ email: user.email }}
                onClick={(event) => event.stopPropagation()}
                className="block max-w-52 truncate hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                title={`${user.email}: open the audit log`}
                data-testid="user-audit-link"
              >
                {user.email}
              </Link>
              {user.is_admin ? <Badge tone="indigo">Admin</Badge> : null}
            </div>
            <div className="max-w-52 truncate text-xs text-slate-600" data-testid="user-name">
              {fullName(user)}
            </div>
          </td>
          <td
            className="px-3 py-3 whitespace-nowrap text-slate-900 tabular-nums"
            data-label="Balance"
            data-testid="user-balance"
          >
            {formatCredits(user.balance)}
          </td>
          <td className="px-3 py-3 whitespace-nowrap" data-label="Status" data-testid="user-status">
            {user.is_banned ? <Badge tone="red">Banned</Badge> : <Badge tone="green">Active</Badge>}
          </td>
          <td className="px-3 py-3 whitespace-nowrap text-slate-600" data-label="Created">
            {formatDate(user.created_at)}
          </td>
          <td className="stack-full px-3 py-2 whitespace-nowrap" data-label="Credits">
            <SetCreditsForm user={user} />
          </td>
          <td className="stack-full px-3 py-2 whitespace-nowrap">
            <UserActions user={user} />
          </td>
        </tr>
      )}
    />
  );
}
