import { describe, expect, it } from 'vitest';
import { linkCodeAt } from './pages.js';

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
