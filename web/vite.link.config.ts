import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vite';
import app from './vite.config';
import { PAGE_CHUNKS_PLUGIN } from './vite.page-speed';

/**
 * The second half of the web build (`npm run build` runs both): a shared ticket's page, link.html, which the server
 * answers for /l/{code}. Its entry (src/link-main.tsx) renders that page alone, so a recipient downloads no router,
 * sign-in page or session check. It is built on its own, after the app and into the same folder, rather than as a
 * second page of the app's build: there it would share the app's chunks, a dozen small files on the way to the first
 * screen (each a round trip on a phone's network), where on its own it is one script. The app's plugins apply, but
 * for the list of each page's chunks: that is the app's router's, and this build must not write over it.
 */
export default defineConfig((env) => {
  const config = app(env);
  const plugins = (config.plugins ?? []).filter(
    (plugin) => !(plugin && 'name' in plugin && plugin.name === PAGE_CHUNKS_PLUGIN),
  );
  return mergeConfig(
    { ...config, plugins },
    {
      build: {
        emptyOutDir: false,
        rolldownOptions: { input: fileURLToPath(new URL('./link.html', import.meta.url)) },
      },
    },
  );
});
