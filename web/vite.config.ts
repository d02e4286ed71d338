import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { inlineEntryCss, preloadSessionCheck } from './vite.page-speed';

// The API (and its socket.io gateway) runs on port 3000 in development; in production the server serves web/dist
// itself, so every call goes to the same origin.
const apiTarget = process.env.VITE_DEV_API_TARGET ?? 'http://localhost:3000';

export default defineConfig(({ mode }) => {
  // The API's address as the app calls it (lib/api-client.ts): empty for the same origin.
  const webDir = fileURLToPath(new URL('.', import.meta.url));
  const apiBase = (loadEnv(mode, webDir, 'VITE_').VITE_API_URL ?? '').replace(/\/+$/, '');
  return {
    plugins: [react(), tailwindcss(), inlineEntryCss(), preloadSessionCheck(apiBase)],
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
