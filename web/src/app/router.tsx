import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../features/auth/login.page';
import { TicketsOverviewPage } from '../features/tickets/tickets-overview.page';
import { TopUpButton } from '../features/top-up/top-up-button';
import { lazyPage } from '../lib/lazy-route';
import { AdminRoute } from './guards/admin-route';
import { ProtectedRoute } from './guards/protected-route';
import { PublicOnlyRoute } from './guards/public-only-route';
import { AdminLayout } from './layouts/admin-layout';
import { DashboardLayout } from './layouts/dashboard-layout';
import { NotFound, RouteError } from './route-error';

/**
 * The route table of SPEC.md §2. Sign-in and the Tickets Overview ship in the main bundle; the other pages load as
 * chunks on first visit.
 *
 * Errors: the root route's errorElement shows the designed error screen ('Unexpected Application Error!' and what
 * went wrong, e.g. 'Loading chunk failed') for the public pages; inside the signed-in frame a pathless route with its
 * own errorElement keeps the sidebar around the same screen. Addresses no route matches get the 404 screen, inside
 * the frame under /dashboard and /admin.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
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
      // A shared ticket's page: for anyone with the link, no session needed, outside the dashboard frame.
      {
        path: '/l/:code',
        lazy: lazyPage(
          () => import('../features/links/link.page'),
          (m) => m.LinkPage,
        ),
      },
      // The one-time link e-mailed when a sign-in needs a second proof.
      {
        path: '/sign-in-link',
        lazy: lazyPage(
          () => import('../features/auth/sign-in-link.page'),
          (m) => m.SignInLinkPage,
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
              {
                errorElement: <RouteError inFrame />,
                children: [
                  { index: true, element: <TicketsOverviewPage topUp={<TopUpButton />} /> },
                  {
                    path: 'accounts',
                    lazy: lazyPage(
                      () => import('../features/accounts/accounts.page'),
                      (m) => m.AccountsPage,
                    ),
                  },
                  {
                    path: 'accounts/:accountId',
                    lazy: lazyPage(
                      () => import('../features/accounts/account-tickets.page'),
                      (m) => m.AccountTicketsPage,
                    ),
                  },
                  { path: '*', element: <NotFound inFrame /> },
                ],
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
                  {
                    errorElement: <RouteError inFrame />,
                    children: [
                      { index: true, element: <Navigate to="/admin/users" replace /> },
                      {
                        path: 'users',
                        lazy: lazyPage(
                          () => import('../features/admin-users/users.page'),
                          (m) => m.AdminUsersPage,
                        ),
                      },
                      {
                        path: 'users/:userId/audits',
                        lazy: lazyPage(
                          () => import('../features/admin-audit/user-audit-log.page'),
                          (m) => m.UserAuditLogPage,
                        ),
                      },
                      {
                        path: 'invites',
                        lazy: lazyPage(
                          () => import('../features/admin-invites/invites.page'),
                          (m) => m.InvitesPage,
                        ),
                      },
                      {
                        path: 'accounts',
                        lazy: lazyPage(
                          () => import('../features/admin-accounts/admin-accounts.page'),
                          (m) => m.AdminAccountsPage,
                        ),
                      },
                      {
                        path: 'duplicate-tickets',
                        lazy: lazyPage(
                          () => import('../features/duplicate-tickets/duplicate-tickets.page'),
                          (m) => m.DuplicateTicketsPage,
                        ),
                      },
                      { path: '*', element: <NotFound inFrame /> },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
