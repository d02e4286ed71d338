import { describe, expect, it } from 'vitest';
import { isOfAudience, linkCodeAt, pageAudience, pages } from './pages.js';

describe('the code of a shared ticket’s address, as the router reads it (the link page’s own entry and the server read it without one)', () => {
  const code = 'Ab_-'.repeat(5) + 'Zz';
  it.each([
    [`/l/${code}`, code],
    [`/l/${code}/`, code],
    [`/l/${code}//`, code],
    [`/L/${code}`, code],
    ['/l/not%20a%20link', 'not a link'],
    ['/l/%E0%A4%A', '%E0%A4%A'],
    ['/l/', ''],
    ['/l', ''],
    [`/l/${code}/extra`, ''],
    ['/link.html', ''],
    ['/dashboard', ''],
  ])('%s: %j', (pathname, expected) => {
    expect(linkCodeAt(pathname)).toBe(expected);
  });
});

describe("who gets a page's own file: its audience, by whether the request carries a session", () => {
  it.each([
    [pages.dashboard, 'signed-in', [false, true]],
    [pages.adminUserAudits, 'signed-in', [false, true]],
    [pages.login, 'signed-out', [true, false]],
    [pages.register, 'anyone', [true, true]],
    [pages.link, 'anyone', [true, true]],
  ] as const)('%s is for %s', (page, audience, [withoutSession, withSession]) => {
    expect(pageAudience(page)).toBe(audience);
    expect(isOfAudience(audience, false)).toBe(withoutSession);
    expect(isOfAudience(audience, true)).toBe(withSession);
  });
});
