import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { pageAudience, pages } from '../services/contracts/src/pages';
import {
  firstScreensOf,
  inlineEntryCss,
  appScriptsAfterFirstPaint,
  pageChunks,
  preloadSessionCheck,
} from './vite.page-speed';

const THEME_BOOT = '/src/theme-boot.js';

/**
 * The modules the router loads for a page beyond the entry (src/app/routes.tsx): the server names their chunks in the
 * page it answers (vite.page-speed.ts `pageChunks`). A browser test loads each page and checks that every script it
 * ran was named, and nothing else.
 */
const SIGNED_IN = ['src/app/layouts/dashboard-layout.tsx', 'src/app/realtime-bridge.tsx'];
const ADMIN = ['src/app/layouts/admin-layout.tsx', 'src/app/realtime-bridge.tsx'];
const PAGE_MODULES: Record<string, readonly string[]> = {
  [pages.dashboard]: [...SIGNED_IN, 'src/app/tickets-overview-route.tsx'],
  [pages.accounts]: [...SIGNED_IN, 'src/features/accounts/accounts.page.tsx'],
  [pages.accountTickets]: [...SIGNED_IN, 'src/features/accounts/account-tickets.page.tsx'],
  [pages.settings]: [...SIGNED_IN, 'src/app/settings-route.tsx'],
  [pages.adminUsers]: [...ADMIN, 'src/features/admin-users/users.page.tsx'],
  [pages.adminUserAudits]: [...ADMIN, 'src/features/admin-audit/user-audit-log.page.tsx'],
  [pages.adminInvites]: [...ADMIN, 'src/features/admin-invites/invites.page.tsx'],
  [pages.adminAccounts]: [...ADMIN, 'src/features/admin-accounts/admin-accounts.page.tsx'],
  [pages.adminDuplicateTickets]: [...ADMIN, 'src/features/duplicate-tickets/duplicate-tickets.page.tsx'],
  // In the entry itself: its own file holds only its first screen.
  [pages.login]: [],
  [pages.register]: ['src/features/auth/register.page.tsx'],
  [pages.waitlist]: ['src/features/waitlist/waitlist.page.tsx'],
  [pages.resetPassword]: ['src/features/auth/reset-password.page.tsx'],
  [pages.signInLink]: ['src/features/auth/sign-in-link.page.tsx'],
  [pages.verifyEmail]: ['src/features/auth/verify-email.page.tsx'],
};

/**
 * src/theme-boot.js sets the theme before the first paint. The build writes it into each page (index.html, and
 * link.html of vite.link.config.ts) as an inline classic script, so the first paint waits on no request of its own (a
 * render-blocking file costs a round trip on a phone's network); the server's Content-Security-Policy allows that
 * script by its hash, read from the built pages (services/server web-app.ts), and no other inline script. The dev
 * server serves the source as a file.
 */
function themeBoot(): Plugin {
  const read = () => readFileSync(fileURLToPath(new URL(`.${THEME_BOOT}`, import.meta.url)), 'utf8');
  let build = false;
  return {
    name: 'seatlink-theme-boot',
    configResolved(config) {
      build = config.command === 'build';
    },
    transformIndexHtml: {
      order: 'pre',
      handler: (html) =>
        build ? html.replace(`<script src="${THEME_BOOT}"></script>`, `<script>${read().trim()}</script>`) : html,
    },
  };
}

// The API (and its socket.io gateway) runs on port 3000 in development; in production the server serves web/dist
// itself, so every call goes to the same origin.
const apiTarget = process.env.VITE_DEV_API_TARGET ?? 'http://localhost:3000';

export default defineConfig(({ mode }) => {
  // The API's address as the app calls it (lib/api-client.ts): empty for the same origin.
  const webDir = fileURLToPath(new URL('.', import.meta.url));
  const apiBase = (loadEnv(mode, webDir, 'VITE_').VITE_API_URL ?? '').replace(/\/+$/, '');
  return {
    plugins: [
      // React Aria ships its own texts (a date field's part names, 'Dismiss', 'Calendar') in some 30 languages; the
      // product speaks English only, so only those are bundled. en-GB (the I18nProvider's locale) reads them by its
      // language; the dates themselves are formatted by Intl, in en-GB.
      optimizeLocales.vite({ locales: ['en-US'] }),
      react(),
      tailwindcss(),
      themeBoot(),
      inlineEntryCss(),
      preloadSessionCheck(apiBase),
      appScriptsAfterFirstPaint(),
      pageChunks(PAGE_MODULES, pageAudience, firstScreensOf('src/app/first-screen.tsx')),
    ],
    resolve: {
      alias: [
        // Read the shared contracts from source, so `vite` works without building them first.
        {
          find: '@seatlink/contracts',
          replacement: fileURLToPath(new URL('../services/contracts/src/index.ts', import.meta.url)),
        },
        // zod without its eval probe, which the Content-Security-Policy reports (src/lib/zod-jitless.ts).
        { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) },
      ],
    },
    server: {
      port: 5173,
      proxy: {
        '/v1': { target: apiTarget, changeOrigin: true },
        // GET /accounts/{id}/tickets has no v1 prefix (docs/reference.md "API calls"); the app's own pages live under
        // /dashboard.
        '^/accounts/': { target: apiTarget, changeOrigin: true },
        '/health': { target: apiTarget, changeOrigin: true },
        // The simulated wallet provider mounted in the API (its logos show on the tickets).
        '/wallet-sim': { target: apiTarget, changeOrigin: true },
        '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
      },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
    },
  };
});
