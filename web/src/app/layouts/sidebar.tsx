import { useId, useState, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { Brand } from '../../components/ui/brand';
import { Button } from '../../components/ui/button';
import { cx } from '../../components/ui/cx';
import {
  AccountsIcon,
  ChartIcon,
  ChevronIcon,
  CopyIcon,
  KeyIcon,
  LogoutIcon,
  SettingsIcon,
  ShieldIcon,
  TicketIcon,
  UsersIcon,
  WalletIcon,
} from '../../components/ui/icons';
import { ThemeSwitch } from '../../components/ui/theme-switch';
import { useLogout } from '../../features/auth/use-logout';
import { NotificationBell } from '../../features/notifications/notification-bell';
import { useSessionStore } from '../../lib/session.store';

function NavItem({
  to,
  end,
  icon,
  children,
  onNavigate,
  nested,
}: {
  to: string;
  end?: boolean;
  icon: ReactNode;
  children: ReactNode;
  onNavigate?: () => void;
  nested?: boolean;
}) {
  return (
    <NavLink
      to={to}
      end={end}
      onClick={onNavigate}
      className={({ isActive }) =>
        cx(
          'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
          nested && 'pl-10',
          isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        )
      }
    >
      {icon}
      {children}
    </NavLink>
  );
}

/** Sidebar content (docs/reference.md "Dashboard frame"): brand, navigation, the signed-in user's email and Logout. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const user = useSessionStore((s) => s.user);
  const { logout, busy } = useLogout();
  const [adminOpen, setAdminOpen] = useState(true);
  const adminGroupId = useId();

  return (
    <div className="flex h-full flex-col bg-white">
      <div className="flex h-16 shrink-0 items-center border-b border-slate-200 px-5">
        <Brand />
        {/* The drawer (a small screen) has the bell in the top bar already. */}
        {onNavigate ? null : <NotificationBell className="ml-auto" />}
      </div>

      <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto px-3 py-4">
        <NavItem to="/dashboard" end icon={<TicketIcon />} onNavigate={onNavigate}>
          Tickets
        </NavItem>
        <NavItem to="/dashboard/accounts" icon={<AccountsIcon />} onNavigate={onNavigate}>
          Accounts
        </NavItem>
        <NavItem to="/dashboard/activity" icon={<ChartIcon />} onNavigate={onNavigate}>
          Link activity
        </NavItem>
        <NavItem to="/dashboard/settings" icon={<SettingsIcon />} onNavigate={onNavigate}>
          Settings
        </NavItem>

        {user?.is_admin ? (
          <div className="pt-2">
            <button
              type="button"
              aria-expanded={adminOpen}
              aria-controls={adminGroupId}
              onClick={() => setAdminOpen((open) => !open)}
              className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              <ShieldIcon />
              <span className="flex-1 text-left">Admin</span>
              <ChevronIcon className={cx('h-4 w-4 transition-transform', adminOpen ? 'rotate-180' : '')} />
            </button>
            {adminOpen ? (
              <div id={adminGroupId} className="mt-1 space-y-1">
                <NavItem to="/admin/users" icon={<UsersIcon />} onNavigate={onNavigate} nested>
                  Users
                </NavItem>
                <NavItem to="/admin/invites" icon={<KeyIcon />} onNavigate={onNavigate} nested>
                  Invites
                </NavItem>
                <NavItem to="/admin/accounts" icon={<WalletIcon />} onNavigate={onNavigate} nested>
                  All Accounts
                </NavItem>
                <NavItem to="/admin/duplicate-tickets" icon={<CopyIcon />} onNavigate={onNavigate} nested>
                  Duplicate Tickets
                </NavItem>
              </div>
            ) : null}
          </div>
        ) : null}
      </nav>

      <div className="border-t border-slate-200 p-4">
        <ThemeSwitch className="mb-3" />
        {/* Its line is kept while the user is not known yet (the page's first screen), so nothing below it moves. */}
        <p className="min-h-5 truncate text-sm font-medium text-slate-700" data-testid="user-email" title={user?.email}>
          {user?.email}
        </p>
        <Button
          variant="secondary"
          className="mt-3 w-full"
          onClick={() => void logout()}
          disabled={busy}
          aria-busy={busy}
        >
          <LogoutIcon className="h-4 w-4" />
          {busy ? 'Logging out...' : 'Logout'}
        </Button>
      </div>
    </div>
  );
}
