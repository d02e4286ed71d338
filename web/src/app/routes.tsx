import { pages } from '@seatlink/contracts';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { LoadingScreen } from '../components/ui/loading-screen';
import { LoginPage } from '../features/auth/login.page';
import { readOverviewAhead } from '../features/tickets/api/read-overview-ahead';
import { useFirstScreenGone } from '../lib/first-screen';
import { lazyPage } from '../lib/lazy-route';
import { readsAhead } from '../lib/route-reads';
import { AdminRoute } from './guards/admin-route';
import { ProtectedRoute } from './guards/protected-route';
import { PublicOnlyRoute } from './guards/public-only-route';
import { NotFound, RouteError } from './route-error';

/**
 * Every page's root: it renders once the status check has settled and the page's code is in, in the commit that shows
 * the page, which takes the page's first screen (lib/first-screen.ts) away.
 */
function Root() {
  useFirstScreenGone();
  return <Outlet />;
}

/**
 * The route table (docs/reference.md "Pages and routes"). Every page's path is one of the contracts' `pages`, the list
 * the server also reads to answer a page's address 200 and any other 404 (routes.unit.spec.ts checks that the two name
 * the same pages). Nested pages give their whole path, so each is written as the list has it. Only the sign-in page
 * ships in the main bundle, with the guards and the error screens: every other page, and the signed-in frame (layouts,
 * live updates), loads as a chunk of its own on first visit, so a visitor's sign-in downloads no dashboard, Stripe or
 * QR code. While the first page's chunks load the screen keeps reading 'Loading...' (`hydrateFallbackElement`).
 *
 * Errors: the root route's errorElement shows the designed error screen ('Unexpected Application Error!' and what
 * went wrong, e.g. 'Loading chunk failed') for the public pages; inside the signed-in frame a pathless route with its
 * own errorElement keeps the sidebar around the same screen. Addresses no route matches get the 404 screen, inside
 * the frame under /dashboard and /admin.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      { path: pages.home, element: <Navigate to={pages.dashboard} replace /> },
      {
        element: <PublicOnlyRoute />,
        children: [{ path: pages.login, element: <LoginPage /> }],
      },
      // Open to anyone, signed in or not (docs/reference.md "Pages and routes").
      {
        path: pages.register,
        lazy: lazyPage(
          () => import('../features/auth/register.page'),
          (m) => m.RegisterPage,
        ),
      },
      {
        path: pages.waitlist,
        lazy: lazyPage(
          () => import('../features/waitlist/waitlist.page'),
          (m) => m.WaitlistPage,
        ),
      },
      {
        path: pages.resetPassword,
        lazy: lazyPage(
          () => import('../features/auth/reset-password.page'),
          (m) => m.ResetPasswordPage,
        ),
      },
      // A shared ticket's page: for anyone with the link, no session needed, outside the dashboard frame.
      {
        path: pages.link,
        lazy: lazyPage(
          () => import('../features/links/link.route'),
          (m) => m.LinkRoute,
        ),
      },
      // The one-time link e-mailed when a sign-in needs a second proof.
      {
        path: pages.signInLink,
        lazy: lazyPage(
          () => import('../features/auth/sign-in-link.page'),
          (m) => m.SignInLinkPage,
        ),
      },
      {
        path: pages.verifyEmail,
        lazy: lazyPage(
          () => import('../features/auth/verify-email.page'),
          (m) => m.VerifyEmailPage,
        ),
      },
      {
        element: <ProtectedRoute />,
        children: [
          {
            path: pages.dashboard,
            lazy: lazyPage(
              () => import('./layouts/dashboard-layout'),
              (m) => m.DashboardLayout,
            ),
            children: [
              {
                errorElement: <RouteError inFrame />,
                children: [
                  {
                    index: true,
                    // Its reads start with the navigation, beside its code's download (lib/route-reads.ts).
                    loader: readsAhead(readOverviewAhead),
                    lazy: lazyPage(
                      () => import('./tickets-overview-route'),
                      (m) => m.TicketsOverviewRoute,
                    ),
                  },
                  {
                    path: pages.accounts,
                    lazy: lazyPage(
                      () => import('../features/accounts/accounts.page'),
                      (m) => m.AccountsPage,
                    ),
                  },
                  {
                    path: pages.accountTickets,
                    lazy: lazyPage(
                      () => import('../features/accounts/account-tickets.page'),
                      (m) => m.AccountTicketsPage,
                    ),
                  },
                  {
                    path: pages.linkActivity,
                    lazy: lazyPage(
                      () => import('../features/link-activity/link-activity.page'),
                      (m) => m.LinkActivityPage,
                    ),
                  },
                  {
                    path: pages.settings,
                    lazy: lazyPage(
                      () => import('./settings-route'),
                      (m) => m.SettingsRoute,
                    ),
                  },
                  { path: '*', element: <NotFound inFrame /> },
                ],
              },
            ],
          },
          {
            path: pages.admin,
            element: <AdminRoute />,
            children: [
              {
                lazy: lazyPage(
                  () => import('./layouts/admin-layout'),
                  (m) => m.AdminLayout,
                ),
                children: [
                  {
                    errorElement: <RouteError inFrame />,
                    children: [
                      { index: true, element: <Navigate to={pages.adminUsers} replace /> },
                      {
                        path: pages.adminUsers,
                        lazy: lazyPage(
                          () => import('../features/admin-users/users.page'),
                          (m) => m.AdminUsersPage,
                        ),
                      },
                      {
                        path: pages.adminUserAudits,
                        lazy: lazyPage(
                          () => import('../features/admin-audit/user-audit-log.page'),
                          (m) => m.UserAuditLogPage,
                        ),
                      },
                      {
                        path: pages.adminInvites,
                        lazy: lazyPage(
                          () => import('../features/admin-invites/invites.page'),
                          (m) => m.InvitesPage,
                        ),
                      },
                      {
                        path: pages.adminAccounts,
                        lazy: lazyPage(
                          () => import('../features/admin-accounts/admin-accounts.page'),
                          (m) => m.AdminAccountsPage,
                        ),
                      },
                      {
                        path: pages.adminDuplicateTickets,
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
