import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatCredits,
  formatDate,
  formatDateTime,
  formatGBP,
  formatMinutesAgo,
  percentOf,
} from './format';

describe('formatters', () => {
  it('formats dates en-GB', () => {
    expect(formatDate('2025-11-21T14:05:00Z', { timeZone: 'UTC' })).toBe('21 Nov 2025');
    expect(formatDateTime('2025-11-21T14:05:00Z', { timeZone: 'UTC' })).toBe('21 Nov 2025, 14:05');
    expect(formatDateTime('2025-07-01T23:30:00Z', { timeZone: 'Europe/London' })).toBe('02 Jul 2025, 00:30');
  });

  it('shows a dash for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('')).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });

  it('formats pounds and credits', () => {
    expect(formatGBP(25)).toBe('£25.00');
    expect(formatGBP(1234.5)).toBe('£1,234.50');
    expect(formatCredits(1250)).toBe('1,250');
    expect(formatCredits(12.5)).toBe('12.5');
    expect(formatCredits(0)).toBe('0');
  });

  it('groups the thousands of a count', () => {
    expect(formatCount(10000)).toBe('10,000');
    expect(formatCount(1)).toBe('1');
  });

  it('gives whole percentages and 0 for an empty total', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 3)).toBe(67);
    expect(percentOf(5, 5)).toBe(100);
  });
});

describe('minutes ago (en-GB)', () => {
  it('reads whole minutes, and just now under one', () => {
    expect(formatMinutesAgo(5.9)).toBe('5 min ago');
    expect(formatMinutesAgo(1)).toBe('1 min ago');
    expect(formatMinutesAgo(0.5)).toBe('just now');
    expect(formatMinutesAgo(-3)).toBe('just now');
    expect(formatMinutesAgo(Number.NaN)).toBe('just now');
  });
});
