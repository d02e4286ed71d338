import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';
import {
  couldBePagePath,
  isOfAudience,
  linkCodeAt,
  linkCodeParamSchema,
  PAGE_CHUNKS_FILE,
  pageAudience,
  pageOf,
  pages,
  routes,
} from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './session-cookie.js';

/** The API's own addresses: what they do not know is answered as every call answers an error (JSON). */
const API_PREFIXES = ['/v1', '/accounts', '/health', '/socket.io', '/wallet-sim'];
/** Other addresses of the server's that are never a page: answered a plain 404 when unknown. */
const SERVER_PREFIXES = ['/docs', '/metrics'];

/** What an address the server has no route for is. */
export type UnknownPathKind =
  /** Under the API: the usual JSON error. */
  | 'api'
  /** A page of the dashboard: the dashboard, status 200 (the router shows it). */
  | 'page'
  /** A shared ticket's page (`/l/{code}`): its own entry (link.html), status 200. */
  | 'link-page'
  /** Could be a page, but the router has none there: the dashboard's not-found screen, status 404. */
  | 'unknown-page'
  /** A file (a dot in the path) or an address of the server's own: a plain 404. */
  | 'not-a-page';

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** `url` is the request's, query included. */
export function kindOfUnknownPath(url: string): UnknownPathKind {
  return unknownPath(url).kind;
}

/** What an address is, and the page it shows (its pattern in the contracts' `pages`) when it is one. */
function unknownPath(url: string): { kind: UnknownPathKind; page: string | null; pathname: string } {
  const pathname = url.split('?', 1)[0] ?? '/';
  if (API_PREFIXES.some((p) => under(pathname, p))) return { kind: 'api', page: null, pathname };
  if (SERVER_PREFIXES.some((p) => under(pathname, p)) || !couldBePagePath(pathname)) {
    return { kind: 'not-a-page', page: null, pathname };
  }
  const page = pageOf(pathname);
  if (page === null) return { kind: 'unknown-page', page, pathname };
  return { kind: page === pages.link ? 'link-page' : 'page', page, pathname };
}

const brotli = { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };

function encodeSync(html: string): Record<PageEncoding, Buffer> {
  const identity = Buffer.from(html, 'utf8');
  return { br: brotliCompressSync(identity, brotli), gzip: gzipSync(identity, { level: 9 }), identity };
}

async function encode(html: string): Promise<Record<PageEncoding, Buffer>> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(identity, brotli),
    promisify(gzip)(identity, { level: 9 }),
  ]);
  return { br, gzip: gz, identity };
}

/**
 * The pages the build wrote a file of their own for: index.html with a `<link rel="modulepreload">` for each of the
 * page's chunks, so the browser fetches them beside the entry instead of after it has run. Read and compressed in the
 * background at start (a dozen pages take a while); until one is ready, that page gets plain index.html. A listed
 * file that is not in `pages/`, or not there, is left out.
 */
function pagesWithPreloads(webDist: string): Map<string, Record<PageEncoding, Buffer>> {
  const ready = new Map<string, Record<PageEncoding, Buffer>>();
  const file = path.join(webDist, PAGE_CHUNKS_FILE);
  if (!existsSync(file)) return ready;
  const listed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { html?: unknown }>;
  void (async () => {
    for (const [page, { html }] of Object.entries(listed)) {
      if (typeof html !== 'string' || !/^pages\/[\w.-]+\.html$/.test(html)) continue;
      const own = path.join(webDist, html);
      if (existsSync(own)) ready.set(page, await encode(readFileSync(own, 'utf8')));
    }
  })().catch(() => undefined);
  return ready;
}

/**
 * The built dashboard's pages, for the addresses the server has no route of its own for. The dashboard's files
 * (index.html, the hashed assets, favicon.svg, robots.txt) are served as files (`useStaticAssets`); a page's address
 * is answered with index.html, and the web router shows the page. Only addresses that can be pages get it: the
 * router's pages (`pages` of the contracts, the list the router itself is built from) with status 200, other
 * page-like addresses with 404 (the router shows its not-found screen there), and a file or an address of the
 * server's own (`/metrics`, `/docs/…`, anything with a dot) a plain 404 rather than a page that would claim it.
 *
 * A shared ticket's page (`/l/{code}`) is answered with link.html instead: the build's second entry, which renders
 * that page alone, for a recipient who is not signed in and goes nowhere else in the app (the whole dashboard's
 * entry would download first otherwise). A build without it (an older one) answers index.html there too: its router
 * shows the same page.
 */
export class WebApp {
  /** index.html as sent, compressed once at start: the answer to a page goes through no compression hook. */
  private readonly encoded: Record<PageEncoding, Buffer>;

  /** link.html, the same way. */
  private readonly link: Record<PageEncoding, Buffer>;

  /** index.html naming a page's own chunks, by page (`pagesWithPreloads`). */
  private readonly withPreloads: Map<string, Record<PageEncoding, Buffer>>;

  /** CSP sources (`'sha256-…'`) of both pages' inline scripts: the pages' policy allows these and no other. */
  readonly inlineScriptHashes: readonly string[];

  private constructor(webDist: string, indexHtml: string, linkHtml: string) {
    this.inlineScriptHashes = [...new Set([...inlineScriptHashes(indexHtml), ...inlineScriptHashes(linkHtml)])];
    this.encoded = encodeSync(indexHtml);
    this.link = linkHtml === indexHtml ? this.encoded : encodeSync(linkHtml);
    this.withPreloads = pagesWithPreloads(webDist);
  }

  /** The web app built in `webDist`; null when there is none (an API without the dashboard). */
  static load(webDist: string | null): WebApp | null {
    const index = webDist ? path.join(webDist, 'index.html') : null;
    if (!webDist || !index || !existsSync(index)) return null;
    const indexHtml = readFileSync(index, 'utf8');
    const link = path.join(webDist, 'link.html');
    return new WebApp(webDist, indexHtml, existsSync(link) ? readFileSync(link, 'utf8') : indexHtml);
  }

  /**
   * index.html as answered for `page`: the page's own file when the build wrote one (its chunks named, its first
   * screen) and the request is of the page's audience (a page only the signed-in see, to a request with a session
   * cookie; the sign-in page, which paints the form, to one without).
   */
  private pageFor(page: string, request: FastifyRequest): Record<PageEncoding, Buffer> {
    if (!isOfAudience(pageAudience(page), Boolean(request.cookies?.[SESSION_COOKIE]))) return this.encoded;
    return this.withPreloads.get(page) ?? this.encoded;
  }

  /**
   * Answers a request no route matched, unless it is under the API (false: the caller sends the usual JSON 404).
   */
  answerUnknown(request: FastifyRequest, reply: FastifyReply): boolean {
    const { kind, page, pathname } = unknownPath(request.url);
    if (kind === 'api') return false;
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (read && kind !== 'not-a-page') {
      const encoding = pageEncoding(request.headers['accept-encoding']);
      if (encoding !== 'identity') void reply.header('content-encoding', encoding);
      const preload = kind === 'link-page' ? linkPreload(pathname) : null;
      if (preload) void reply.header('link', preload);
      const html =
        kind === 'link-page' ? this.link : kind === 'page' && page ? this.pageFor(page, request) : this.encoded;
      void reply
        .status(kind === 'unknown-page' ? 404 : 200)
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding')
        .type('text/html; charset=utf-8')
        .send(html[encoding]);
      return true;
    }
    void reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    return true;
  }
}

type PageEncoding = 'br' | 'gzip' | 'identity';

/**
 * A shared ticket's page (`/l/{code}`) shows what GET /v1/links/{code} answers: the browser is told to ask for it
 * while the scripts download (a `Link` preload, with the credentials the page's own call sends), so the ticket shows
 * a round trip sooner on a phone's network. Only a well-formed code is named.
 */
function linkPreload(pathname: string): string | null {
  const code = linkCodeAt(pathname);
  if (!linkCodeParamSchema.safeParse(code).success) return null;
  return `<${routes.viewLink.path.replace(':code', code)}>; rel=preload; as=fetch; crossorigin=use-credentials`;
}

/**
 * The Content-Security-Policy sources that allow each inline script of `html` (a `<script>` without `src`) by the
 * SHA-256 of its text, as CSP Level 2 hashes it: the text between the tags, exactly.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', text = ''] = match;
    if (/\ssrc\s*=/i.test(attributes) || text.length === 0) continue;
    hashes.push(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/** The encoding of a page's answer the client accepts: brotli, else gzip, else none (`q=0` refuses one). */
export function pageEncoding(acceptEncoding: string | string[] | undefined): PageEncoding {
  const accepted = new Set<string>();
  for (const part of [acceptEncoding ?? ''].flat().join(',').split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}
