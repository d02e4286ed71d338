import * as React from 'react';
import { isPagePath, pages } from '@seatlink/contracts';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';

// The route table's elements are built when it loads; the unit tests compile JSX to React.createElement.
(globalThis as { React?: unknown }).React = React;
const { routes } = await import('./routes');

/** Every route that shows something of its own: its whole path ('' for a layout without one). */
function leafPaths(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    const own = route.path ?? '';
    const full = own.startsWith('/') ? own : `${parent.replace(/\/$/, '')}/${own}`;
    const here = route.path === undefined ? parent : full;
    if (route.children) return leafPaths(route.children, here);
    return [route.index ? parent : here];
  });
}

/** What the router shows at `pathname`: a page, or its not-found screen (a '*' route). */
function routerShowsPage(pathname: string): boolean {
  const matches = matchRoutes(routes, pathname);
  const last = matches?.at(-1)?.route;
  return last !== undefined && last.path !== '*';
}

const ID = '8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34';
const filled = (pattern: string) =>
  pattern.replace(':code', 'A'.repeat(22)).replace(':accountId', ID).replace(':userId', ID);

describe('the pages the router shows and the pages the server answers 200 (one list: pages of the contracts)', () => {
  it('routes exactly the pages of the list, and every other address to its not-found screen', () => {
    const routed = leafPaths(routes);
    const shown = routed.filter((p) => !p.endsWith('*'));
    expect(new Set(shown)).toEqual(new Set(Object.values(pages)));
    expect(shown).toHaveLength(Object.values(pages).length);
    expect(routed.filter((p) => p.endsWith('*')).sort()).toEqual(['/*', '/admin/*', '/dashboard/*']);
  });

  const pagesShown = Object.values(pages).flatMap((p) => {
    const path = filled(p);
    return [path, `${path}/`.replace('//', '/'), path.toUpperCase()];
  });
  const notPages = [
    '/nowhere',
    '/dashboard/nowhere',
    `/dashboard/accounts/${ID}/more`,
    '/admin/settings',
    `/admin/users/${ID}`,
    '/l',
    '/l/',
    `/l/${'A'.repeat(22)}/extra`,
    '/loginx',
    '/metricsx',
  ];

  it.each([...pagesShown.map((p) => [p, true] as const), ...notPages.map((p) => [p, false] as const)])(
    '%s: the router shows a page there exactly when the server says it is one (%s)',
    (pathname, page) => {
      expect(routerShowsPage(pathname)).toBe(page);
      expect(isPagePath(pathname)).toBe(page);
    },
  );
});
