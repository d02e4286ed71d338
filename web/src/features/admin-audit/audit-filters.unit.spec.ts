import { describe, expect, it } from 'vitest';
import {
  applyPreset,
  auditQuery,
  defaultAuditFilters,
  filterChips,
  loadAuditFilters,
  presetDays,
  presetRange,
  removeChip,
  saveAuditFilters,
  setCustomDate,
  updateAuditFilters,
  EVENT_TYPE_OPTIONS,
} from './audit-filters';

/** Local storage in memory. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('audit filters: the date range', () => {
  const now = new Date(2026, 10, 22, 10, 30).getTime();

  it("'Last month' is the previous calendar month, and names its days", () => {
    const { start, end } = presetRange('lastMonth', now);
    expect(start).toEqual(new Date(2026, 9, 1));
    expect(end).toEqual(new Date(new Date(2026, 10, 1).getTime() - 1));
    expect(presetDays('lastMonth', now)).toBe('1 Oct 2026 – 31 Oct 2026');
    expect(presetDays('lastMonth', new Date(2027, 2, 3).getTime())).toBe('1 Feb 2027 – 28 Feb 2027');
    expect(presetDays('lastMonth', new Date(2027, 0, 15).getTime())).toBe('1 Dec 2026 – 31 Dec 2026');
    // The rolling ranges say what they are in their names.
    for (const preset of ['default', 'last24h', 'last7d', 'last30d', 'custom'] as const)
      expect(presetDays(preset, now)).toBeNull();
  });

  it("shows the days of 'Last month' in its chip", () => {
    const filters = applyPreset(defaultAuditFilters(now), 'lastMonth', now);
    expect(filterChips(filters, now)).toEqual([
      { key: 'range', label: 'Event Time: Last month (1 Oct 2026 – 31 Oct 2026)' },
    ]);
    expect(filterChips(applyPreset(filters, 'last7d', now), now)).toEqual([
      { key: 'range', label: 'Event Time: Last 7 days' },
    ]);
  });

  it('holds the pickers’ values as local ISO text and asks the server for the instants they name', () => {
    const filters = defaultAuditFilters(now);
    expect(filters.endDate).toBe('2026-11-22T10:30:00');
    expect(filters.startDate).toBe('2026-10-22T10:30:00');
    const custom = setCustomDate(setCustomDate(filters, 'startDate', '2026-11-01T08:00:00'), 'endDate', '');
    expect(custom.range).toBe('custom');
    const query = auditQuery(custom, now);
    expect(query.start_date).toBe(new Date(2026, 10, 1, 8, 0).toISOString());
    expect(query.end_date).toBeUndefined();
    expect(filterChips(custom, now)[0]?.label).toBe('Event Time: from 01 Nov 2026, 08:00');
  });

  it('keeps a custom range across a reload, and drops a stored date that names no moment', () => {
    const storage = memoryStorage();
    const custom = setCustomDate(defaultAuditFilters(now), 'startDate', '2026-11-01T08:00:00');
    saveAuditFilters(storage, custom);
    expect(loadAuditFilters(storage, now)).toMatchObject({ range: 'custom', startDate: '2026-11-01T08:00:00' });
    // Older filter sets wrote minutes only; they still read.
    saveAuditFilters(storage, { ...custom, startDate: '2026-11-01T08:00', endDate: '2026-02-30T10:00' });
    expect(loadAuditFilters(storage, now)).toMatchObject({ startDate: '2026-11-01T08:00', endDate: '' });
  });
});

describe('audit filters: kinds', () => {
  const now = new Date(2026, 10, 22, 10, 30).getTime();

  it('asks the server for the kinds ticked, says them in a chip, and removing it shows every kind again', () => {
    const filters = updateAuditFilters({ ...defaultAuditFilters(now), offset: 100 }, { kinds: ['money', 'access'] });
    expect(filters.offset).toBe(0);
    expect(auditQuery(filters, now).kind).toEqual(['money', 'access']);
    expect(filterChips(filters, now)).toEqual([{ key: 'kinds', label: 'Kind: Money, Access' }]);
    const removed = removeChip(filters, 'kinds', now);
    expect(removed.kinds).toEqual([]);
    expect(filterChips(removed, now)).toEqual([]);
    expect(auditQuery(removed, now).kind).toEqual([]);
  });

  it('keeps the kinds across a reload, and drops a stored kind that is none', () => {
    const storage = memoryStorage();
    saveAuditFilters(storage, { ...defaultAuditFilters(now), kinds: ['links'] });
    expect(loadAuditFilters(storage, now).kinds).toEqual(['links']);
    storage.setItem('userAuditFilters', JSON.stringify({ kinds: ['links', 'secrets', 42] }));
    expect(loadAuditFilters(storage, now).kinds).toEqual(['links']);
    // Filter sets stored before kinds were read with every kind.
    storage.setItem('userAuditFilters', JSON.stringify({ status: ['FAILED'] }));
    expect(loadAuditFilters(storage, now)).toMatchObject({ kinds: [], status: ['FAILED'] });
  });

  it('offers every event type grouped by kind, DISTRIBUTE and TICKET_RECALLED first', () => {
    expect(EVENT_TYPE_OPTIONS.slice(0, 2)).toEqual([
      { value: 'DISTRIBUTE', label: 'Ticket Distributed', group: 'Links' },
      { value: 'TICKET_RECALLED', label: 'Ticket Recalled', group: 'Links' },
    ]);
    const groups = EVENT_TYPE_OPTIONS.map((o) => o.group);
    expect([...new Set(groups)]).toEqual(['Links', 'Money', 'Access']);
    // Each group in one run.
    expect(groups.filter((g, i) => g !== groups[i - 1])).toEqual(['Links', 'Money', 'Access']);
    expect(EVENT_TYPE_OPTIONS.find((o) => o.value === 'CREDITS_SET')).toEqual({
      value: 'CREDITS_SET',
      label: 'Credits Set',
      group: 'Money',
    });
  });
});
