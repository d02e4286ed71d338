import { fileURLToPath } from 'node:url';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API (and its socket.io gateway) runs on port 3000 in development; in production the server serves web/dist
// itself, so every call goes to the same origin.
const apiTarget = process.env.VITE_DEV_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    // React Aria ships its own texts (a date field's part names, 'Dismiss', 'Calendar') in some 30 languages; the
    // product speaks English only, so only those are bundled. en-GB (the I18nProvider's locale) reads them by its
    // language; the dates themselves are formatted by Intl, in en-GB.
    optimizeLocales.vite({ locales: ['en-US'] }),
    react(),
    tailwindcss(),
  ],
  resolve: {
    alias: {
      // Read the shared contracts from source, so `vite` works without building them first.
      '@seatlink/contracts': fileURLToPath(new URL('../services/contracts/src/index.ts', import.meta.url)),
    },
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
});
