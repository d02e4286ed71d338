import { describe, expect, it } from 'vitest';
import { creditChangeLabel, formatCreditChange } from './credit-changes';

describe('credit changes in the replay', () => {
  it('names each kind of change', () => {
    expect(creditChangeLabel({ kind: 'set', reason: 'Goodwill', by: 'admin@seatlink.test' })).toBe(
      'Set by admin@seatlink.test: “Goodwill”',
    );
    // Set before reasons were asked for, or by the seed (no user).
    expect(creditChangeLabel({ kind: 'set', reason: null, by: null })).toBe('Set by an admin: no reason recorded');
    expect(creditChangeLabel({ kind: 'spent', reason: 'distribution' })).toBe('Spent on links');
    expect(creditChangeLabel({ kind: 'given_back', reason: null })).toBe('Given back for links not made');
    expect(creditChangeLabel({ kind: 'purchased', reason: null })).toBe('Bought by card');
    expect(creditChangeLabel({ kind: 'reversed', reason: 'refund' })).toBe('Taken back: card payment refunded');
    expect(creditChangeLabel({ kind: 'reversed', reason: 'dispute_lost' })).toBe('Taken back: card dispute lost');
    expect(creditChangeLabel({ kind: 'reversed', reason: null })).toBe('Taken back');
    expect(creditChangeLabel({ kind: 'disputed', reason: null })).toBe('Card payment disputed');
  });

  it('signs the change', () => {
    expect(formatCreditChange(25)).toBe('+25');
    expect(formatCreditChange(-10)).toBe('-10');
    expect(formatCreditChange(0)).toBe('0');
    expect(formatCreditChange(1250)).toBe('+1,250');
  });
});
