import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../features/auth/login.page';
import { TicketsOverviewPage } from '../features/tickets/tickets-overview.page';
import { lazyPage } from '../lib/lazy-route';
import { AdminRoute } from './guards/admin-route';
import { ProtectedRoute } from './guards/protected-route';
import { PublicOnlyRoute } from './guards/public-only-route';
import { AdminLayout } from './layouts/admin-layout';
import { DashboardLayout } from './layouts/dashboard-layout';

/**
 * The route table of SPEC.md §2. Sign-in and the Tickets Overview ship in the main bundle; the other pages load as
 * chunks on first visit. No route sets an errorElement, so react-router's default error screen
 * ('Unexpected Application Error!') stays in place, also for a chunk that fails to load.
 */
export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/dashboard" replace /> },
  {
    element: <PublicOnlyRoute />,
    children: [{ path: '/login', element: <LoginPage /> }],
  },
  // Open to anyone, signed in or not (SPEC.md §2 route table).
  {
    path: '/register',
    lazy: lazyPage(
      () => import('../features/auth/register.page'),
      (m) => m.RegisterPage,
    ),
  },
  {
    path: '/waitlist',
    lazy: lazyPage(
      () => import('../features/waitlist/waitlist.page'),
      (m) => m.WaitlistPage,
    ),
  },
  {
    path: '/reset-password',
    lazy: lazyPage(
      () => import('../features/auth/reset-password.page'),
      (m) => m.ResetPasswordPage,
    ),
  },
  {
    path: '/verify-email',
    lazy: lazyPage(
      () => import('../features/auth/verify-email.page'),
      (m) => m.VerifyEmailPage,
    ),
  },
  {
    element: <ProtectedRoute />,
    children: [
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [
          { index: true, element: <TicketsOverviewPage /> },
          {
            path: 'accounts',
            lazy: lazyPage(
              () => import('../features/accounts/accounts.page'),
              (m) => m.AccountsPage,
            ),
          },
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
              {
                path: 'users',
                lazy: lazyPage(
                  () => import('../features/admin/users.page'),
                  (m) => m.AdminUsersPage,
                ),
              },
              {
                path: 'users/:userId/audits',
                lazy: lazyPage(
                  () => import('../features/admin/user-audit-log.page'),
                  (m) => m.UserAuditLogPage,
                ),
              },
              {
                path: 'invites',
                lazy: lazyPage(
                  () => import('../features/admin/invites.page'),
                  (m) => m.InvitesPage,
                ),
              },
              {
                path: 'accounts',
                lazy: lazyPage(
                  () => import('../features/admin/admin-accounts.page'),
                  (m) => m.AdminAccountsPage,
                ),
              },
              {
                path: 'duplicate-tickets',
                lazy: lazyPage(
                  () => import('../features/admin/duplicate-tickets.page'),
                  (m) => m.DuplicateTicketsPage,
                ),
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
