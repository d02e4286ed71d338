import { describe, expect, it } from 'vitest';
import { MAX_LINK_CLICKS } from '@seatlink/contracts';
import { CalendarDateTime } from '@internationalized/date';
import {
  clickLimitHelper,
  clicksLabel,
  distributeButtonState,
  distributionCostOf,
  distributionStartedText,
  distributionSubtitle,
  draftOfLink,
  eventStartExpiry,
  formatLinkExpiry,
  generateLinksLabel,
  isExpired,
  isLimitReached,
  isUnlimited,
  LINK_PREVIEW_LENGTH,
  distributeBody,
  linkChanges,
  linkPreview,
  minExpiryValue,
  needCreditsText,
  SETTINGS_MESSAGES,
  sharedEventStart,
  usageHelper,
  validateDistributionSettings,
  draftLetsSeveralSave,
  DISTRIBUTION_TEXTS,
} from './distribution';
import { localDateTimeOf } from './local-date-time';

const ticket = (id: string, flags: { duplicate?: boolean; distributed?: boolean } = {}) => ({
  id,
  is_duplicate: flags.duplicate ?? false,
  is_distributed: flags.distributed ?? false,
});

describe('the distribute button (the bottom bar and bulk distribution: docs/reference.md#link-rules)', () => {
  it("is labelled 'Distribute' with none eligible, 'Generate Link' for one, 'Generate Links' for more", () => {
    expect(distributeButtonState([ticket('a', { distributed: true })], 100, 5).label).toBe('Distribute');
    expect(distributeButtonState([ticket('a')], 100, 5).label).toBe('Generate Link');
    expect(distributeButtonState([ticket('a'), ticket('b')], 100, 5).label).toBe('Generate Links');
  });

  it('sends only the selected tickets that are neither distributed nor duplicate', () => {
    const state = distributeButtonState(
      [ticket('a'), ticket('b', { duplicate: true }), ticket('c', { distributed: true }), ticket('d')],
      100,
      5,
    );
    expect(state).toMatchObject({ eligibleIds: ['a', 'd'], cost: 10, disabled: false, reason: null });
    expect(state.label).toBe('Generate Links');
  });

  it("says 'All selected are duplicates' when every selected ticket is one", () => {
    const state = distributeButtonState([ticket('a', { duplicate: true }), ticket('b', { duplicate: true })], 100, 5);
    expect(state).toMatchObject({ disabled: true, reason: 'All selected are duplicates', label: 'Distribute' });
  });

  it("says 'Selected tickets are already distributed or duplicates' for a mix with none eligible", () => {
    expect(distributeButtonState([ticket('a', { distributed: true })], 100, 5).reason).toBe(
      'Selected tickets are already distributed or duplicates',
    );
    expect(
      distributeButtonState([ticket('a', { distributed: true }), ticket('b', { duplicate: true })], 100, 5).reason,
    ).toBe('Selected tickets are already distributed or duplicates');
  });

  it("is disabled below count × cost: 'Need {n} credits (have {m})'", () => {
    const state = distributeButtonState([ticket('a'), ticket('b'), ticket('c')], 14, 5);
    expect(state).toMatchObject({ disabled: true, reason: 'Need 15 credits (have 14)', cost: 15 });
    expect(distributeButtonState([ticket('a'), ticket('b'), ticket('c')], 15, 5).disabled).toBe(false);
    expect(distributeButtonState([ticket('a')], 1234.5, 2000).reason).toBe('Need 2,000 credits (have 1,234.5)');
  });

  it("with nothing selected: 'No valid tickets selected to distribute'", () => {
    expect(distributeButtonState([], 100, 5)).toMatchObject({
      disabled: true,
      reason: 'No valid tickets selected to distribute',
    });
  });

  it("takes the user's own distribution_cost, else 5", () => {
    expect(distributionCostOf({ distribution_cost: 3 })).toBe(3);
    expect(distributionCostOf({ distribution_cost: 0 })).toBe(0);
    expect(distributionCostOf({ distribution_cost: null })).toBe(5);
    expect(distributionCostOf(null)).toBe(5);
  });

  it('words the texts of docs/reference.md exactly', () => {
    expect(distributionStartedText(3)).toBe('Successfully started distribution for 3 tickets.');
    expect(distributionSubtitle(2)).toBe('Configure distribution settings for 2 tickets');
  });

  it('puts each count in agreement with its noun, grouped', () => {
    expect(distributionStartedText(1)).toBe('Successfully started distribution for 1 ticket.');
    expect(distributionStartedText(10_026)).toBe('Successfully started distribution for 10,026 tickets.');
    expect(distributionSubtitle(1)).toBe('Configure distribution settings for 1 ticket');
    expect(generateLinksLabel(1)).toBe('Generate Link');
    expect(generateLinksLabel(3)).toBe('Generate Links');
    expect(clickLimitHelper(1)).toBe('Link will expire after 1 click');
    expect(clickLimitHelper(1_000)).toBe('Link will expire after 1,000 clicks');
    expect(needCreditsText(1, 0)).toBe('Need 1 credit (have 0)');
  });
});

describe('link state (docs/reference.md#link-states)', () => {
  it('counts clicks out of the limit, ∞ when max_clicks is null or 0', () => {
    expect(clicksLabel({ clicks: 3, max_clicks: 10 })).toBe('3 / 10');
    expect(clicksLabel({ clicks: 3, max_clicks: null })).toBe('3 / ∞');
    expect(clicksLabel({ clicks: 0, max_clicks: 0 })).toBe('0 / ∞');
    expect(clicksLabel({ clicks: 1200, max_clicks: 5000 })).toBe('1,200 / 5,000');
    expect(isUnlimited(null)).toBe(true);
    expect(isUnlimited(0)).toBe(true);
    expect(isUnlimited(1)).toBe(false);
  });

  it('is Limit Reached when max is above 0 and the clicks reach it', () => {
    expect(isLimitReached({ clicks: 9, max_clicks: 10 })).toBe(false);
    expect(isLimitReached({ clicks: 10, max_clicks: 10 })).toBe(true);
    expect(isLimitReached({ clicks: 11, max_clicks: 10 })).toBe(true);
    expect(isLimitReached({ clicks: 50, max_clicks: null })).toBe(false);
    expect(isLimitReached({ clicks: 50, max_clicks: 0 })).toBe(false);
  });

  it('is Expired once the expiry has passed, never without one', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(isExpired({ expiry: '2026-11-22T11:59:59Z' }, now)).toBe(true);
    expect(isExpired({ expiry: '2026-11-22T12:00:00Z' }, now)).toBe(true);
    expect(isExpired({ expiry: '2026-11-22T12:00:01Z' }, now)).toBe(false);
    expect(isExpired({ expiry: null }, now)).toBe(false);
    expect(isExpired({ expiry: 'not a date' }, now)).toBe(false);
  });

  it('shows the expiry as day, short month and 24-hour time (en-GB), or Never', () => {
    expect(formatLinkExpiry('2026-12-05T21:30:00Z', { timeZone: 'UTC' })).toBe('05 Dec, 21:30');
    expect(formatLinkExpiry('2026-07-01T23:30:00Z', { timeZone: 'Europe/London' })).toBe('02 Jul, 00:30');
    expect(formatLinkExpiry(null)).toBe('Never');
    expect(formatLinkExpiry('')).toBe('Never');
  });

  it('cuts a link to its first 30 characters', () => {
    const link = 'http://localhost:3000/l/vJ-Y7I4OYPahCx9kTFypWw';
    expect(linkPreview(link)).toBe(`${link.slice(0, LINK_PREVIEW_LENGTH)}...`);
    expect(linkPreview(link).startsWith('http://localhost:3000/l/vJ-Y7I')).toBe(true);
    expect(linkPreview('https://s.ink/l/abc')).toBe('https://s.ink/l/abc');
    expect(linkPreview('x'.repeat(30))).toBe('x'.repeat(30));
  });
});

describe('the Distribution Settings modal (docs/reference.md#distribution-settings-dialog and #link-rules)', () => {
  const now = new Date(2026, 10, 22, 10, 0, 30).getTime();
  const HOUR = 60 * 60 * 1000;
  /** A draft with the expiry picked at the local minute of `ms` (null: none), Unlimited access on. */
  const draft = (
    expiry: number | CalendarDateTime | null,
    patch: { unlimited?: boolean; maxClicks?: string; label?: string } = {},
  ) => ({
    expiry: typeof expiry === 'number' ? localDateTimeOf(expiry) : expiry,
    expiryPartial: false,
    unlimited: true,
    maxClicks: '',
    label: '',
    pin: '',
    removePin: false,
    ...patch,
  });

  it('yields no expiry and unlimited clicks by default', () => {
    expect(validateDistributionSettings(draft(null), now)).toEqual({
      ok: true,
      value: { expiryDate: null, maxClicks: null, label: null },
    });
  });

  it('yields the expiry as ISO and the click limit as a whole number', () => {
    const at = new Date(2026, 11, 24, 18, 0);
    expect(validateDistributionSettings(draft(at.getTime(), { unlimited: false, maxClicks: ' 25 ' }), now)).toEqual({
      ok: true,
      value: { expiryDate: at.toISOString(), maxClicks: 25, label: null },
    });
  });

  it('ignores the number while Unlimited access is on', () => {
    expect(validateDistributionSettings(draft(null, { maxClicks: 'abc' }), now)).toMatchObject({
      ok: true,
      value: { maxClicks: null },
    });
  });

  it('refuses an expiry under an hour ahead (a minute of grace), after five years, or typed in part', () => {
    expect(validateDistributionSettings(draft(now + 30 * 60_000), now)).toEqual({
      ok: false,
      errors: { expiry: SETTINGS_MESSAGES.expiryTooSoon },
    });
    // The earliest the field offers is valid.
    expect(validateDistributionSettings(draft(minExpiryValue(now)), now).ok).toBe(true);
    // ...and still a minute later, as the server allows.
    expect(validateDistributionSettings(draft(minExpiryValue(now)), now + 60_000).ok).toBe(true);
    expect(validateDistributionSettings(draft(now + HOUR - 2 * 60_000), now)).toMatchObject({ ok: false });
    expect(validateDistributionSettings(draft(new CalendarDateTime(2033, 1, 1, 0, 0)), now)).toEqual({
      ok: false,
      errors: { expiry: SETTINGS_MESSAGES.expiryTooLate },
    });
    // A date typed in part is no expiry: it is named, not taken for an empty field.
    expect(validateDistributionSettings({ ...draft(null), expiryPartial: true }, now)).toEqual({
      ok: false,
      errors: { expiry: SETTINGS_MESSAGES.expiryInvalid },
    });
  });

  it('needs a whole number of clicks of at least 1 with Unlimited access off', () => {
    const check = (maxClicks: string) =>
      validateDistributionSettings(draft(null, { unlimited: false, maxClicks }), now);
    expect(check('')).toEqual({ ok: false, errors: { maxClicks: SETTINGS_MESSAGES.maxClicksRequired } });
    expect(check('0')).toEqual({ ok: false, errors: { maxClicks: SETTINGS_MESSAGES.maxClicksWhole } });
    expect(check('-2')).toEqual({ ok: false, errors: { maxClicks: SETTINGS_MESSAGES.maxClicksWhole } });
    expect(check('2.5')).toEqual({ ok: false, errors: { maxClicks: SETTINGS_MESSAGES.maxClicksWhole } });
    expect(check('1e3')).toEqual({ ok: false, errors: { maxClicks: SETTINGS_MESSAGES.maxClicksWhole } });
    expect(check(String(MAX_LINK_CLICKS + 1))).toEqual({
      ok: false,
      errors: { maxClicks: SETTINGS_MESSAGES.maxClicksTooMany },
    });
    expect(check('1')).toEqual({ ok: true, value: { expiryDate: null, maxClicks: 1, label: null } });
  });

  it('names both mistakes at once', () => {
    expect(validateDistributionSettings(draft(now, { unlimited: false }), now)).toEqual({
      ok: false,
      errors: { expiry: SETTINGS_MESSAGES.expiryTooSoon, maxClicks: SETTINGS_MESSAGES.maxClicksRequired },
    });
  });

  it('offers one hour from now, up to the whole minute, as the earliest expiry', () => {
    expect(minExpiryValue(now).toString()).toBe('2026-11-22T11:01:00');
    expect(minExpiryValue(new Date(2026, 10, 22, 10, 0, 0).getTime()).toString()).toBe('2026-11-22T11:00:00');
  });

  it("helps with 'Link has unlimited clicks' or 'Link will expire after N clicks'", () => {
    expect(usageHelper({ unlimited: true, maxClicks: '' })).toBe('Link has unlimited clicks');
    expect(usageHelper({ unlimited: false, maxClicks: '5' })).toBe('Link will expire after 5 clicks');
    expect(usageHelper({ unlimited: false, maxClicks: '' })).toBeNull();
  });

  it('warns that more than one person can save the seat when the limit is above 1 or there is none', () => {
    expect(DISTRIBUTION_TEXTS.seatSharing).toBe('More than one person can save this seat with this link.');
    expect(draftLetsSeveralSave({ unlimited: true, maxClicks: '' })).toBe(true);
    // The number left in the field counts for nothing while Unlimited access is on.
    expect(draftLetsSeveralSave({ unlimited: true, maxClicks: '1' })).toBe(true);
    expect(draftLetsSeveralSave({ unlimited: false, maxClicks: '2' })).toBe(true);
    expect(draftLetsSeveralSave({ unlimited: false, maxClicks: ' 40 ' })).toBe(true);
    expect(draftLetsSeveralSave({ unlimited: false, maxClicks: '1' })).toBe(false);
    // Not yet a limit (empty, not a whole number, too many): no warning until it is one.
    expect(draftLetsSeveralSave({ unlimited: false, maxClicks: '' })).toBe(false);
    expect(draftLetsSeveralSave({ unlimited: false, maxClicks: '2.5' })).toBe(false);
    expect(draftLetsSeveralSave({ unlimited: false, maxClicks: '0' })).toBe(false);
    expect(draftLetsSeveralSave({ unlimited: false, maxClicks: '1000001' })).toBe(false);
  });
});

describe('the label, and editing a live link', () => {
  const now = new Date(2026, 10, 22, 10, 0, 30).getTime();
  const HOUR = 60 * 60 * 1000;
  const link = {
    expiry: new Date(now + 30 * 60_000).toISOString(),
    max_clicks: 10,
    label: 'for Sam',
    clicks: 4,
    has_pin: false,
  };
  const editing = { clicks: link.clicks, keptExpiry: link.expiry };

  it('takes a label trimmed, empty as none, at most 80 characters (an emoji is one), no control or bidi characters', () => {
    const check = (label: string) =>
      validateDistributionSettings({ ...draftOfLink({ ...link, expiry: null }), label }, now);
    expect(check('  for Sam  ')).toMatchObject({ ok: true, value: { label: 'for Sam' } });
    expect(check('   ')).toMatchObject({ ok: true, value: { label: null } });
    expect(check('🎟️'.repeat(40))).toMatchObject({ ok: true });
    expect(check('x'.repeat(81))).toEqual({ ok: false, errors: { label: SETTINGS_MESSAGES.labelTooLong } });
    expect(check('a\u0000b')).toEqual({ ok: false, errors: { label: SETTINGS_MESSAGES.labelNotAllowed } });
    expect(check('Sam \u202Egnp.exe')).toEqual({ ok: false, errors: { label: SETTINGS_MESSAGES.labelNotAllowed } });
  });

  it('starts the edit modal from the link as it is', () => {
    expect(draftOfLink(link)).toMatchObject({ unlimited: false, maxClicks: '10', label: 'for Sam' });
    expect(draftOfLink(link).expiry?.toString()).toBe(localDateTimeOf(Date.parse(link.expiry)).toString());
    expect(draftOfLink({ expiry: null, max_clicks: null, label: null })).toMatchObject({
      expiry: null,
      unlimited: true,
      maxClicks: '',
      label: '',
    });
  });

  it('keeps an expiry less than an hour away when it is left as it was, and checks one that changed', () => {
    const kept = validateDistributionSettings(draftOfLink(link), now, editing);
    expect(kept).toMatchObject({ ok: true, value: { expiryDate: link.expiry } });
    const moved = { ...draftOfLink(link), expiry: localDateTimeOf(now + 40 * 60_000) };
    expect(validateDistributionSettings(moved, now, editing)).toMatchObject({
      ok: false,
      errors: { expiry: SETTINGS_MESSAGES.expiryTooSoon },
    });
    const later = { ...draftOfLink(link), expiry: localDateTimeOf(now + 3 * HOUR) };
    expect(validateDistributionSettings(later, now, editing).ok).toBe(true);
  });

  it('never takes a limit below the clicks counted', () => {
    const below = { ...draftOfLink(link), maxClicks: '3' };
    expect(validateDistributionSettings(below, now, editing)).toEqual({
      ok: false,
      errors: { maxClicks: 'Max clicks cannot be lower than the 4 clicks already counted' },
    });
    expect(validateDistributionSettings({ ...below, maxClicks: '4' }, now, editing).ok).toBe(true);
  });

  it('sends only what changed, null to remove, and nothing when nothing did', () => {
    const as = (patch: object) => ({ expiryDate: link.expiry, maxClicks: 10, label: 'for Sam', ...patch });
    expect(linkChanges(link, as({}))).toEqual({});
    // The picker's minute of the same expiry is no change.
    expect(
      linkChanges(
        link,
        as({ expiryDate: new Date(Math.floor(Date.parse(link.expiry) / 60_000) * 60_000).toISOString() }),
      ),
    ).toEqual({});
    expect(linkChanges(link, as({ maxClicks: null, label: null }))).toEqual({ max_clicks: null, label: null });
    const later = new Date(now + 5 * HOUR).toISOString();
    expect(linkChanges(link, as({ expiryDate: later }))).toEqual({ expiry_date: later });
    expect(linkChanges(link, as({ expiryDate: null }))).toEqual({ expiry_date: null });
    expect(linkChanges({ ...link, expiry: null, max_clicks: 0 }, as({ expiryDate: null, maxClicks: null }))).toEqual(
      {},
    );
  });
});

describe("'When the event starts' as a link's expiry", () => {
  const now = Date.UTC(2026, 10, 22, 10, 0, 30);
  it('offers the next game’s start, to the minute, when it is an hour or more ahead and within five years', () => {
    expect(eventStartExpiry('2026-11-29T15:00:45.000Z', now)).toBe('2026-11-29T15:00:00.000Z');
    expect(eventStartExpiry('2026-11-22T10:30:00.000Z', now)).toBeNull();
    expect(eventStartExpiry('2026-11-20T10:30:00.000Z', now)).toBeNull();
    expect(eventStartExpiry('2040-01-01T00:00:00.000Z', now)).toBeNull();
    expect(eventStartExpiry('not a date', now)).toBeNull();
    expect(eventStartExpiry(null, now)).toBeNull();
  });

  it('takes the one start the tickets share, else none', () => {
    const at = (date: string | null) => ({ metadata: { next_game_date: date } });
    expect(sharedEventStart([at('2026-11-29T15:00:00Z'), at('2026-11-29T15:00:00Z')])).toBe('2026-11-29T15:00:00Z');
    expect(sharedEventStart([at('2026-11-29T15:00:00Z'), at('2026-12-01T15:00:00Z')])).toBeNull();
    expect(sharedEventStart([at('2026-11-29T15:00:00Z'), at(null)])).toBeNull();
    expect(sharedEventStart([])).toBeNull();
  });
});

describe("a link's PIN in the settings", () => {
  const now = Date.UTC(2026, 10, 22, 10, 0, 30);
  const blank = {
    expiry: null,
    expiryPartial: false,
    unlimited: true,
    maxClicks: '',
    label: '',
    pin: '',
    removePin: false,
  };

  it('takes 4 to 8 digits, none when empty, and null to take it off', () => {
    expect(validateDistributionSettings({ ...blank, pin: '2468' }, now)).toMatchObject({
      ok: true,
      value: { pin: '2468' },
    });
    expect(validateDistributionSettings(blank, now)).toEqual({
      ok: true,
      value: { expiryDate: null, maxClicks: null, label: null },
    });
    expect(validateDistributionSettings({ ...blank, removePin: true, pin: '12' }, now)).toMatchObject({
      ok: true,
      value: { pin: null },
    });
    for (const pin of ['123', '123456789', '12a4'])
      expect(validateDistributionSettings({ ...blank, pin }, now)).toEqual({
        ok: false,
        errors: { pin: SETTINGS_MESSAGES.pinFormat },
      });
  });

  it('sends a new PIN always, and null only to a link that has one', () => {
    const link = { expiry: null, max_clicks: null, label: null, has_pin: true };
    const as = { expiryDate: null, maxClicks: null, label: null };
    expect(linkChanges(link, { ...as, pin: '1111' })).toEqual({ pin: '1111' });
    expect(linkChanges(link, { ...as, pin: null })).toEqual({ pin: null });
    expect(linkChanges({ ...link, has_pin: false }, { ...as, pin: null })).toEqual({});
    expect(linkChanges(link, as)).toEqual({});
  });
});

describe('named recipients in the settings', () => {
  const base = { expiryDate: null, maxClicks: null, label: null };
  const sam = { name: 'Sam', email: 'sam@example.com' };

  it('sends the recipients of the tickets of each part only, in the body of the distribute call', () => {
    const settings = { ...base, recipients: { t1: sam, t3: { name: null, email: 'jo@example.com' } } };
    expect(distributeBody(['t1', 't2'], settings).recipients).toEqual([{ ticket_id: 't1', ...sam }]);
    expect(distributeBody(['t3'], settings).recipients).toEqual([
      { ticket_id: 't3', name: null, email: 'jo@example.com' },
    ]);
    expect(distributeBody(['t1'], base)).not.toHaveProperty('recipients');
  });

  it('edits a recipient only when it differs; null removes it; absent leaves it', () => {
    const link = { expiry: null, max_clicks: 0, label: null, has_pin: false, recipient: sam };
    expect(linkChanges(link, { ...base, recipient: { ...sam } })).toEqual({});
    expect(linkChanges(link, { ...base, recipient: null })).toEqual({ recipient: null });
    expect(linkChanges(link, { ...base, recipient: { name: 'Sam', email: 'new@example.com' } })).toEqual({
      recipient: { name: 'Sam', email: 'new@example.com' },
    });
    expect(linkChanges(link, base)).toEqual({});
  });
});
