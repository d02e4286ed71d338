import { describe, expect, it } from 'vitest';
import { anAccount } from '../../testing/tickets';
import {
  ACCOUNT_FORM_MESSAGES,
  accountTotals,
  DEFAULT_ACCOUNT_SORT,
  distributionPercent,
  distributionTone,
  isDistributionPending,
  isFullyDistributed,
  nextAccountSort,
  RECENT_SYNC_MS,
  syncProgressBar,
  syncStatus,
  validateAccountEntries,
  visibleAccounts,
} from './account-rules';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;

describe("sync status (docs/reference.md#wallet-account-states: recent under one hour, else 'Needs sync')", () => {
  it('needs a sync when never synced, or an hour or more ago', () => {
    expect(syncStatus(null, NOW)).toEqual({ kind: 'needs-sync', label: 'Needs sync' });
    expect(syncStatus('not a date', NOW)).toEqual({ kind: 'needs-sync', label: 'Needs sync' });
    expect(syncStatus(ago(RECENT_SYNC_MS), NOW)).toEqual({ kind: 'needs-sync', label: 'Needs sync' });
    expect(syncStatus(ago(3 * RECENT_SYNC_MS), NOW).label).toBe('Needs sync');
  });

  it('is recent under an hour, in whole minutes (en-GB)', () => {
    expect(syncStatus(ago(RECENT_SYNC_MS - 1), NOW)).toEqual({ kind: 'recent', label: 'Synced 59 min ago' });
    expect(syncStatus(ago(5 * MIN + 30_000), NOW).label).toBe('Synced 5 min ago');
    expect(syncStatus(ago(MIN), NOW).label).toBe('Synced 1 min ago');
    expect(syncStatus(ago(20_000), NOW).label).toBe('Synced just now');
    // The browser's clock a little behind the server's.
    expect(syncStatus(ago(-5_000), NOW).label).toBe('Synced just now');
  });
});

describe('distribution bar (docs/reference.md#limits-and-constants: 100 green, above 50 blue, else yellow)', () => {
  it('colours by the share distributed', () => {
    expect(distributionTone(100)).toBe('green');
    expect(distributionTone(99.9)).toBe('blue');
    expect(distributionTone(50.1)).toBe('blue');
    expect(distributionTone(50)).toBe('yellow');
    expect(distributionTone(0)).toBe('yellow');
  });

  it('takes the share from the counts, 0 without tickets, never above 100', () => {
    expect(distributionPercent({ ticket_count: 4, distributed_count: 4 })).toBe(100);
    expect(distributionPercent({ ticket_count: 3, distributed_count: 2 })).toBeCloseTo(66.67, 1);
    expect(distributionPercent({ ticket_count: 0, distributed_count: 0 })).toBe(0);
    expect(distributionPercent({ ticket_count: 2, distributed_count: 5 })).toBe(100);
    expect(distributionTone(distributionPercent({ ticket_count: 2, distributed_count: 1 }))).toBe('yellow');
    expect(distributionTone(distributionPercent({ ticket_count: 3, distributed_count: 2 }))).toBe('blue');
  });
});

describe('accounts overview: search, filter, sort, totals', () => {
  const alex = anAccount({
    id: 'alex',
    name: 'Alex Carter',
    email: 'alex@wallet.test',
    ticket_count: 9,
    distributed_count: 3,
  });
  const sam = anAccount({
    id: 'sam',
    name: 'Sam Okafor',
    email: 'sam@wallet.test',
    ticket_count: 8,
    distributed_count: 8,
  });
  const jo = anAccount({
    id: 'jo',
    name: 'jordan Lee',
    email: 'jordan@wallet.test',
    ticket_count: 0,
    distributed_count: 0,
    in_error_state: true,
  });
  const all = [sam, jo, alex];
  const view = (patch: Partial<Parameters<typeof visibleAccounts>[1]>) =>
    visibleAccounts(all, { search: '', filter: 'all', sort: DEFAULT_ACCOUNT_SORT, ...patch }).map((a) => a.id);

  it('sorts by name by default, case aside', () => {
    expect(view({})).toEqual(['alex', 'jo', 'sam']);
    expect(view({ sort: { key: 'name', direction: 'desc' } })).toEqual(['sam', 'jo', 'alex']);
  });

  it('sorts by tickets and by distribution', () => {
    expect(view({ sort: { key: 'tickets', direction: 'desc' } })).toEqual(['alex', 'sam', 'jo']);
    expect(view({ sort: { key: 'tickets', direction: 'asc' } })).toEqual(['jo', 'sam', 'alex']);
    expect(view({ sort: { key: 'distribution', direction: 'desc' } })).toEqual(['sam', 'alex', 'jo']);
  });

  it('searches name and e-mail', () => {
    expect(view({ search: ' OKAFOR ' })).toEqual(['sam']);
    expect(view({ search: 'jordan@' })).toEqual(['jo']);
    expect(view({ search: 'nobody' })).toEqual([]);
  });

  it('filters fully distributed and distribution pending (an account without tickets is neither)', () => {
    expect(view({ filter: 'distributed' })).toEqual(['sam']);
    expect(view({ filter: 'pending' })).toEqual(['alex']);
    expect(isFullyDistributed(jo)).toBe(false);
    expect(isDistributionPending(jo)).toBe(false);
  });

  it('never reorders its input', () => {
    visibleAccounts(all, { search: '', filter: 'all', sort: DEFAULT_ACCOUNT_SORT });
    expect(all.map((a) => a.id)).toEqual(['sam', 'jo', 'alex']);
  });

  it('reverses on the same sort button, and starts figures with the most', () => {
    expect(nextAccountSort(DEFAULT_ACCOUNT_SORT, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextAccountSort(DEFAULT_ACCOUNT_SORT, 'tickets')).toEqual({ key: 'tickets', direction: 'desc' });
    expect(nextAccountSort({ key: 'tickets', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
  });

  it('adds up the totals', () => {
    expect(accountTotals(all)).toEqual({ accounts: 3, tickets: 17, distributed: 11, needsAttention: 1 });
    expect(accountTotals([])).toEqual({ accounts: 0, tickets: 0, distributed: 0, needsAttention: 0 });
  });
});

describe('sync progress bar', () => {
  it('counts against the tickets the account has, or shows no value on a first sync', () => {
    expect(syncProgressBar({ state: 'running', fetched: 3 }, 9)).toEqual({
      value: 3,
      max: 9,
      text: 'Syncing... 3 tickets read',
    });
    expect(syncProgressBar({ state: 'running', fetched: 12 }, 9)).toMatchObject({ value: 12, max: 12 });
    expect(syncProgressBar({ state: 'running', fetched: 1 }, 0)).toEqual({
      value: undefined,
      max: 100,
      text: 'Syncing... 1 ticket read',
    });
    expect(syncProgressBar(undefined, 4)).toMatchObject({ value: 0, text: 'Syncing...' });
  });
});

describe('add-accounts form (docs/reference.md#form-rules: email and password required)', () => {
  it('gives the request entries, e-mails trimmed and passwords as typed', () => {
    expect(
      validateAccountEntries([
        { email: ' jordan@wallet.test ', password: ' Wallet123! ' },
        { email: 'sam@wallet.test', password: 'x' },
      ]),
    ).toEqual({
      ok: true,
      accounts: [
        { email: 'jordan@wallet.test', password: ' Wallet123! ' },
        { email: 'sam@wallet.test', password: 'x' },
      ],
    });
  });

  it('names what is missing or wrong, per row', () => {
    expect(
      validateAccountEntries([
        { email: '', password: '' },
        { email: 'not-an-address', password: 'x' },
        { email: 'a@wallet.test', password: 'x' },
        { email: 'A@wallet.test', password: '' },
      ]),
    ).toEqual({
      ok: false,
      errors: [
        { email: ACCOUNT_FORM_MESSAGES.emailRequired, password: ACCOUNT_FORM_MESSAGES.passwordRequired },
        { email: ACCOUNT_FORM_MESSAGES.emailInvalid },
        {},
        { email: ACCOUNT_FORM_MESSAGES.duplicate, password: ACCOUNT_FORM_MESSAGES.passwordRequired },
      ],
    });
  });
});
