/**
 * The dashboard's pages: every address the web router shows a page at (docs/reference.md "Pages and routes", and a
 * shared ticket's page `/l/:code`), defined once. The web router takes its paths from here, and the server answers
 * exactly these addresses with the dashboard and status 200 (a shared ticket's page with an entry of its own, the page
 * alone); any other address that could be a page gets the dashboard's not-found screen with status 404. A page added to
 * the router without being added here would be answered 404 by the server: the router's unit test checks that both name
 * the same pages.
 *
 * Parameters are written `:name`, as react-router writes them; each matches one non-empty path segment.
 */
export const pages = {
  home: '/',
  login: '/login',
  register: '/register',
  waitlist: '/waitlist',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  /** The one-time sign-in link e-mailed when a sign-in needs a second proof. */
  signInLink: '/sign-in-link',
  /** A shared ticket's page, for anyone with the link. */
  link: '/l/:code',
  dashboard: '/dashboard',
  accounts: '/dashboard/accounts',
  accountTickets: '/dashboard/accounts/:accountId',
  /** What happened to the user's links: opens and claims by day, opened not claimed, expiring unclaimed. */
  linkActivity: '/dashboard/activity',
  /** The user's own settings: which notifications come by e-mail. */
  settings: '/dashboard/settings',
  admin: '/admin',
  adminUsers: '/admin/users',
  adminUserAudits: '/admin/users/:userId/audits',
  adminInvites: '/admin/invites',
  adminAccounts: '/admin/accounts',
  adminDuplicateTickets: '/admin/duplicate-tickets',
} as const;

export type PagePath = (typeof pages)[keyof typeof pages];

/** The path as react-router reads it: each segment percent-decoded (left as it is when it cannot be decoded). */
function decodedPath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, '%2F');
      } catch {
        return segment;
      }
    })
    .join('/');
}

/** A pattern as react-router matches it at the end of a route: letters in any case, trailing slashes allowed. */
function compile(pattern: string): RegExp {
  const source = pattern
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:[\w-]+/g, '/([^\\/]+)');
  return new RegExp(`^${source}\\/*$`, 'i');
}

const patterns = Object.values(pages).map((page) => [page, compile(page)] as const);

/**
 * The page the router shows at `pathname` (the path of a URL, without its query), as its pattern in `pages`; null
 * for its not-found screen. A path with a dot in it is never a page: no page's address or parameter has one, so
 * `/robots.txt`, `/x.php` or `/.env` are files, present or not.
 */
export function pageOf(pathname: string): PagePath | null {
  const path = decodedPath(pathname);
  if (path.includes('.')) return null;
  return patterns.find(([, pattern]) => pattern.test(path))?.[0] ?? null;
}

const linkPattern = compile(pages.link);

/**
 * The code of a shared ticket's address (`/l/{code}`, trailing slashes allowed, `/L/` too: as the router matches
 * `pages.link`), decoded as the router decodes its parameters; '' when `pathname` is no such address. Read without the
 * router by the link page's own entry, and by the server to preload the link's data.
 */
export function linkCodeAt(pathname: string): string {
  return linkPattern.exec(decodedPath(pathname))?.[1] ?? '';
}

/**
 * Where the web build lists each page's own file (`{ "<page pattern>": { "html": "pages/….html", "chunks": [...] } }`,
 * web/vite.page-speed.ts), which the server reads.
 */
export const PAGE_CHUNKS_FILE = 'page-chunks.json';

/** Pages only a signed-in user sees (the dashboard and the admin pages): anyone else is sent to the sign-in page. */
export function isSignedInPage(page: string): boolean {
  return [pages.dashboard, pages.admin].some((frame) => page === frame || page.startsWith(`${frame}/`));
}

/** Who a page is drawn for: the signed-in only, visitors only, or anyone. */
export type PageAudience = 'signed-in' | 'signed-out' | 'anyone';

/**
 * Who `page` (a pattern of `pages`) is drawn for: the signed-in only ({@link isSignedInPage}), visitors only (the
 * sign-in page: a signed-in user is sent on to the dashboard), or anyone.
 */
export function pageAudience(page: string): PageAudience {
  if (isSignedInPage(page)) return 'signed-in';
  return page === pages.login ? 'signed-out' : 'anyone';
}

/**
 * Whether a request with a session cookie (`hasSession`) or without one is of `audience`, and so gets the page's own
 * file (whether the session is still valid is the API's to say). nginx matches the same in its map of the pages' files
 * (web/vite.page-speed.ts `nginxPagePattern`).
 */
export function isOfAudience(audience: PageAudience, hasSession: boolean): boolean {
  return audience === 'anyone' || (audience === 'signed-in') === hasSession;
}

/** Whether the router shows a page (rather than its not-found screen) at `pathname`: see {@link pageOf}. */
export function isPagePath(pathname: string): boolean {
  return pageOf(pathname) !== null;
}

/** Whether `pathname` could be a page's address at all: a path with no dot in it (see {@link isPagePath}). */
export function couldBePagePath(pathname: string): boolean {
  return !decodedPath(pathname).includes('.');
}
