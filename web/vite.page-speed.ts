import type { Plugin } from 'vite';
import { routes } from '../services/contracts/src/routes';

/**
 * Two changes to the built page that take round trips off the way to the first screen (vite.config.ts uses both).
 * `index.html` is revalidated on every load and carries no secret; what goes into it is the same for every visitor.
 */

/** The entry's stylesheet, as Vite names it after index.html. */
const ENTRY_CSS = /(^|\/)assets\/index-[\w-]+\.css$/;

/**
 * The app's one stylesheet goes into the page as a `<style>` instead of a `<link>`: it is small (about 9 KB
 * compressed: with the page it fits in the first round trip), and a linked stylesheet would hold the first paint
 * back by a request of its own. The Content-Security-Policy allows inline styles.
 */
export function inlineEntryCss(): Plugin {
  return {
    name: 'seatlink:inline-entry-css',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, fileName: string) => {
          const asset = bundle[fileName];
          if (!asset || asset.type !== 'asset' || !ENTRY_CSS.test(fileName)) return link;
          const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
          // The file stays in the build: a chunk loaded later that shares code with the entry (the card payment form)
          // lists the entry's stylesheet among what it fetches before it runs, and fails to load without it.
          return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}

/**
 * The status check every page starts with (`GET /v1/session`, SPEC.md §4) is asked by the page itself, while the
 * scripts download: `<link rel="preload" as="fetch">` with the credentials the app's call sends, so the app's own
 * fetch (lib/api-client.ts) takes the answer already on its way instead of waiting a round trip after the scripts.
 */
export function preloadSessionCheck(apiBase: string): Plugin {
  return {
    name: 'seatlink:preload-session-check',
    transformIndexHtml() {
      return [
        {
          tag: 'link',
          attrs: {
            rel: 'preload',
            href: `${apiBase}${routes.session.path}`,
            as: 'fetch',
            crossorigin: 'use-credentials',
          },
          injectTo: 'head-prepend',
        },
      ];
    },
  };
}
