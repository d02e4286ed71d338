import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { PAGE_CHUNKS_FILE, type PageAudience } from '../services/contracts/src/pages';
import { routes } from '../services/contracts/src/routes';

/**
 * Four changes to the built pages that take round trips off the way to the first screen (vite.config.ts uses them).
 * `index.html` and `link.html` are revalidated on every load and carry no secret; what goes into them is the same for
 * every visitor.
 */

/** The page of a shared ticket (built by vite.link.config.ts, with these plugins), as Vite names it in a hook. */
const LINK_PAGE = '/link.html';

/** The entries' stylesheets, as Vite names them after index.html and link.html. */
const ENTRY_CSS = /(^|\/)assets\/(index|link)-[\w-]+\.css$/;

/**
 * A page's one stylesheet (index.css for the app, link.css for a shared ticket's page) goes into the page as a
 * `<style>` instead of a `<link>`: it is small (about 9 KB compressed, the link page's 5 KB: with the page it fits in
 * the first round trip), and a linked stylesheet would hold the first paint back by a request of its own. The
 * Content-Security-Policy allows inline styles.
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
 * The status check every page starts with (`GET /v1/session`, docs/reference.md "Session states") is asked by the page
 * itself, while the scripts download: `<link rel="preload" as="fetch">` with the credentials the app's call sends, so
 * the app's own fetch (lib/api-client.ts) takes the answer already on its way instead of waiting a round trip after the
 * scripts.
 */
export function preloadSessionCheck(apiBase: string): Plugin {
  return {
    name: 'seatlink:preload-session-check',
    transformIndexHtml(_html, { path }) {
      // A shared ticket's page (link.html) checks no session: the recipient is not signed in.
      if (path === LINK_PAGE) return [];
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

/** The folder of the pages' own files, and nginx's map of addresses to them (infra/nginx.conf includes it). */
export const PAGES_DIR = 'pages';
export const NGINX_PAGES_MAP = 'nginx-pages.map';

/** {@link pageChunks}'s name: the link page's build (vite.link.config.ts) leaves it out. */
export const PAGE_CHUNKS_PLUGIN = 'seatlink:page-chunks';

/** A page's file name: `/dashboard/accounts/:accountId` is `dashboard.accounts.accountId.html`. */
export const pageFileName = (page: string) =>
  `${page
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/^:/, ''))
    .join('.')}.html`;

/** The app's scripts as a page names them: the entry, and the chunks it and the page preload. */
const APP_SCRIPT_TAG =
  /<script type="module" crossorigin src="[^"]+"><\/script>|<link rel="modulepreload" crossorigin href="[^"]+">/g;

/** The element the app renders into (index.html); it follows a page's first screen. */
const APP_ROOT_ID = 'root';

/** Where a page keeps its app's scripts until its first screen is painted (see {@link scriptsAfterFirstPaint}). */
export const APP_SCRIPTS_ID = 'app-scripts';
const APP_SCRIPTS_END = '</template>';

/**
 * In the page: once the first screen has been painted (a task after the first animation frame), the scripts kept in
 * the page's `<template id="app-scripts">` are added to the page, as new elements (so they run), in their order. A
 * page opened in the background paints nothing until it is shown: there they are added at once.
 */
function loadAppScriptsAfterPaint(): void {
  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    const kept = document.getElementById('app-scripts') as HTMLTemplateElement | null;
    const tags = Array.from(kept?.content.children ?? []);
    // Adding one takes from 0.1 ms to a few: a page's 50 took 35–55 ms on a desktop CPU, four times that on a phone,
    // in one task the page cannot answer in. So they are added a few milliseconds' worth at a time, a task each. A
    // page in the background, where nobody waits on it and timers wait a second, gets the rest at once.
    const addSome = () => {
      const until = performance.now() + 4;
      while (tags.length > 0 && (document.visibilityState === 'hidden' || performance.now() < until)) {
        const tag = tags.shift()!;
        const element = document.createElement(tag.localName);
        for (const { name, value } of Array.from(tag.attributes)) element.setAttribute(name, value);
        document.head.appendChild(element);
      }
      if (tags.length > 0) setTimeout(addSome, 0);
    };
    addSome();
  };
  if (document.visibilityState === 'hidden') load();
  else requestAnimationFrame(() => setTimeout(load, 0));
}

/** The inline script of {@link loadAppScriptsAfterPaint}: the same in every page (its CSP hash is the server's). */
const LOADER = `<script>(${loadAppScriptsAfterPaint.toString()})()</script>`;

/**
 * `html` with its app's scripts (the entry and the chunks named for preloading) kept in a `<template>` and added by an
 * inline script once the first screen is painted: nothing the page downloads before that paint competes with it,
 * and Lighthouse no longer counts a script that happened to start before the paint as needed for it (its largest
 * paint read 0.8 s in some runs and 3 s in others of the same page). The page paints from its HTML and inline style
 * alone, so the scripts starting a frame later costs one frame. Scripts added to a page that has them kept already go
 * into its template.
 */
export function scriptsAfterFirstPaint(html: string): string {
  const tags = html.match(APP_SCRIPT_TAG) ?? [];
  if (tags.length === 0) return html;
  const rest = html.replace(APP_SCRIPT_TAG, '');
  if (rest.includes(`<template id="${APP_SCRIPTS_ID}">`)) {
    return rest.replace(APP_SCRIPTS_END, `${tags.join('')}${APP_SCRIPTS_END}`);
  }
  if (!rest.includes('</head>') || !rest.includes('</body>'))
    throw new Error('scriptsAfterFirstPaint: no </head> or </body>');
  return rest
    .replace('</head>', `<template id="${APP_SCRIPTS_ID}">${tags.join('')}${APP_SCRIPTS_END}</head>`)
    .replace('</body>', `${LOADER}</body>`);
}

/** The built pages' app scripts wait for the first paint ({@link scriptsAfterFirstPaint}). */
export function appScriptsAfterFirstPaint(): Plugin {
  return {
    name: 'seatlink:app-scripts-after-first-paint',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: { order: 'post', handler: scriptsAfterFirstPaint },
  };
}

/**
 * The page's pattern as nginx matches `"<session cookie> <path>"`: the path as the router matches it (any case,
 * trailing slashes, a parameter one segment) and the cookie of its audience, as the API process reads it
 * (`isOfAudience` of the contracts): set for a page only the signed-in see, none for the sign-in page, any otherwise.
 */
export function nginxPagePattern(page: string, audience: PageAudience): string {
  const path = page.replace(/\/:[\w-]+/g, '/[^/]+');
  const cookie = { 'signed-in': '\\S+', 'signed-out': '', anyone: '\\S*' }[audience];
  return `~*^${cookie} ${path}/*$`;
}

/**
 * V8's explicit compile hint (Chrome 136 on), as a chunk's first line: every function of the file is compiled as the
 * file is streamed in, on a thread beside the page, instead of one by one on the main thread the first time each is
 * called. `pageChunks` gives it to the code a page starts with (the entry and what it imports, and each page's own
 * chunks), where most functions run as the page starts: React DOM, the router, the page's components. Code loaded on
 * demand (a dialog, the date picker, the card form) keeps V8's lazy compiling. Other browsers read a comment.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * What each page needs beyond the entry: the chunks of its lazily loaded modules (a layout, the page itself) and
 * every chunk they import. Without them named, a page's own code was only asked for once the entry had downloaded,
 * run, and its router had matched the address. For each page the build writes `pages/<page>.html`: index.html with a
 * `<link rel="modulepreload">` for each of them, so a phone downloads them beside the entry. Served by the API process
 * (it reads `page-chunks.json`: `{ "<page pattern>": { "html": "pages/….html", "chunks": [...] } }`) and by nginx
 * (`pages/nginx-pages.map`), for a page only the signed-in see (`audience`) only to a request with a session, and for
 * a page only visitors see (the sign-in page) only to a request without one.
 * `modules` maps each page (a pattern of the contracts' `pages`) to the source files (relative to web/) the router
 * loads for it; a name that matches no chunk fails the build, so a page renamed or moved leaves no stale list behind.
 * `firstScreens` gives what a page paints with its HTML, before any script has run: it goes first in the page's body.
 * The chunks a page starts with (the entry's and each page's) get V8's compile hint (`COMPILE_HINT`).
 */
export function pageChunks(
  modules: Record<string, readonly string[]>,
  audience: (page: string) => PageAudience,
  firstScreens?: FirstScreens,
): Plugin {
  let root = '';
  let outDir = '';
  const chunksOf: Record<string, string[]> = {};
  const startup = new Set<string>();
  return {
    name: PAGE_CHUNKS_PLUGIN,
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!, c]));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      // What the entry loads already (its own imports are in index.html).
      const withImports = (fileName: string, into: Set<string>) => {
        if (into.has(fileName)) return;
        into.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) withImports(imported, into);
      };
      const entryLoads = new Set<string>();
      for (const entry of chunks.filter((c) => c.isEntry)) withImports(entry.fileName, entryLoads);

      for (const [page, sources] of Object.entries(modules)) {
        const needed = new Set<string>();
        for (const source of sources) {
          const chunk = byModule.get(path.resolve(root, source));
          if (!chunk) this.error(`page-chunks: ${source} (for ${page}) is not a chunk of its own in this build`);
          withImports(chunk.fileName, needed);
        }
        chunksOf[page] = [...needed].filter((f) => !entryLoads.has(f)).map((f) => `/${f}`);
        for (const fileName of needed) startup.add(fileName);
      }
      for (const fileName of entryLoads) startup.add(fileName);
    },
    // index.html is written by now: each page's file is it, with its chunks named.
    async writeBundle() {
      // Into the written files: Vite puts a chunk's list of lazy imports (`__vite__mapDeps`) at its top as it renders
      // the bundle, and the hint counts only as a file's first line.
      for (const fileName of startup) {
        const file = path.join(outDir, fileName);
        const code = readFileSync(file, 'utf8');
        if (!code.startsWith(COMPILE_HINT)) writeFileSync(file, `${COMPILE_HINT}\n${code}`);
      }
      const index = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      if (!index.includes('</head>')) this.error('page-chunks: index.html has no </head>');
      const screens = firstScreens ? await firstScreens(root, Object.keys(chunksOf)) : {};
      mkdirSync(path.join(outDir, PAGES_DIR), { recursive: true });
      const listed: Record<string, { html: string; chunks: string[] }> = {};
      const map: string[] = [];
      for (const [page, chunks] of Object.entries(chunksOf)) {
        const html = `${PAGES_DIR}/${pageFileName(page)}`;
        const links = chunks.map((f) => `<link rel="modulepreload" crossorigin href="${f}">`).join('');
        let file = scriptsAfterFirstPaint(index.replace('</head>', `${links}</head>`));
        const screen = screens[page];
        if (screen) {
          // Painted whole or not at all: a busy phone's parser yields mid-page, and a first paint of half the sign-in
          // form (centred, so its half sat lower) moved when the rest came (a layout shift of 0.11). The page renders
          // once the app's root, which follows the first screen, is parsed.
          file = file
            .replace(/<body[^>]*>/, (body) => `${body}${screen}`)
            .replace('</head>', `<link rel="expect" href="#${APP_ROOT_ID}" blocking="render"></head>`);
        }
        writeFileSync(path.join(outDir, html), file);
        listed[page] = { html, chunks };
        map.push(`"${nginxPagePattern(page, audience(page))}" /${html};`);
      }
      writeFileSync(path.join(outDir, PAGE_CHUNKS_FILE), `${JSON.stringify(listed, null, 2)}\n`);
      writeFileSync(
        path.join(outDir, PAGES_DIR, NGINX_PAGES_MAP),
        `# Written by the web build (vite.page-speed.ts pageChunks): "<session cookie> <path>" to the page's own file.\n${map.join('\n')}\n`,
      );
    },
  };
}

/** Renders each page's first screen (HTML), or none; `root` is the app's folder. */
export type FirstScreens = (root: string, pages: readonly string[]) => Promise<Record<string, string | undefined>>;

/**
 * The first screens of `module` (relative to the app's folder), which exports `renderFirstScreen(page)`: the app's own
 * components, rendered to HTML by Vite's server-side module loader with the app's configuration (its aliases, its
 * JSX), so what a page paints first is what the app then draws in the same place.
 */
export function firstScreensOf(module: string): FirstScreens {
  return async (root, pages) => {
    const { createServer } = await import('vite');
    const server = await createServer({
      root,
      mode: 'production',
      logLevel: 'error',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    try {
      const { renderFirstScreen } = (await server.ssrLoadModule(`/${module}`)) as {
        renderFirstScreen: (page: string) => string | undefined;
      };
      return Object.fromEntries(pages.map((page) => [page, renderFirstScreen(page)]));
    } finally {
      await server.close();
    }
  };
}
