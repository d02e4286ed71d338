import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { inlineEntryCss, preloadSessionCheck } from './vite.page-speed';

const THEME_BOOT = '/src/theme-boot.js';

/**
 * src/theme-boot.js sets the theme before the first paint, from a classic script that index.html loads first (the
 * page's Content-Security-Policy allows no inline script). The build emits it as an asset named by its content's hash,
 * cached for a year like the others, and points index.html's tag at it; the dev server serves the source.
 */
function themeBoot(): Plugin {
  const read = () => readFileSync(fileURLToPath(new URL(`.${THEME_BOOT}`, import.meta.url)));
  const fileName = (code: Buffer) =>
    `assets/theme-boot-${createHash('sha256').update(code).digest('base64url').slice(0, 10)}.js`;
  let build = false;
  let base = '/';
  return {
    name: 'seatlink-theme-boot',
    configResolved(config) {
      build = config.command === 'build';
      base = config.base;
    },
    transformIndexHtml: {
      order: 'pre',
      // `vite-ignore`: Vite leaves the tag as it is (it bundles only module scripts) and drops the attribute.
      handler: (html) =>
        build ? html.replace(`src="${THEME_BOOT}"`, `src="${base}${fileName(read())}" vite-ignore`) : html,
    },
    generateBundle() {
      const code = read();
      this.emitFile({ type: 'asset', fileName: fileName(code), source: code });
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
        // GET /accounts/{id}/tickets has no v1 prefix (SPEC.md §7); the app's own pages live under /dashboard.
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
