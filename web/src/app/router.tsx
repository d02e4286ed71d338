import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { AccountsPage } from '../features/accounts/accounts.page';
import { AdminAccountsPage } from '../features/admin/admin-accounts.page';
import { DuplicateTicketsPage } from '../features/admin/duplicate-tickets.page';
import { InvitesPage } from '../features/admin/invites.page';
import { UserAuditLogPage } from '../features/admin/user-audit-log.page';
import { AdminUsersPage } from '../features/admin/users.page';
import { LoginPage } from '../features/auth/login.page';
import { RegisterPage } from '../features/auth/register.page';
import { ResetPasswordPage } from '../features/auth/reset-password.page';
import { VerifyEmailPage } from '../features/auth/verify-email.page';
import { TicketsOverviewPage } from '../features/tickets/tickets-overview.page';
import { WaitlistPage } from '../features/waitlist/waitlist.page';
import { AdminRoute } from './guards/admin-route';
import { ProtectedRoute } from './guards/protected-route';
import { PublicOnlyRoute } from './guards/public-only-route';
import { AdminLayout } from './layouts/admin-layout';
import { DashboardLayout } from './layouts/dashboard-layout';

/**
 * The route table of SPEC.md §2. No route sets an errorElement, so react-router's default error screen
 * ('Unexpected Application Error!') stays in place.
 */
export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/dashboard" replace /> },
  {
    element: <PublicOnlyRoute />,
    children: [{ path: '/login', element: <LoginPage /> }],
  },
  // Open to anyone, signed in or not (SPEC.md §2 route table).
  { path: '/register', element: <RegisterPage /> },
  { path: '/waitlist', element: <WaitlistPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
  { path: '/verify-email', element: <VerifyEmailPage /> },
  {
    element: <ProtectedRoute />,
    children: [
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [
          { index: true, element: <TicketsOverviewPage /> },
          { path: 'accounts', element: <AccountsPage /> },
        ],
      },
      {
        path: '/admin',
        element: <AdminRoute />,
        children: [
          {
            element: <AdminLayout />,
            children: [
              { index: true, element: <Navigate to="/admin/users" replace /> },
              { path: 'users', element: <AdminUsersPage /> },
              { path: 'users/:userId/audits', element: <UserAuditLogPage /> },
              { path: 'invites', element: <InvitesPage /> },
              { path: 'accounts', element: <AdminAccountsPage /> },
              { path: 'duplicate-tickets', element: <DuplicateTicketsPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
