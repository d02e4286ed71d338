import { describe, expect, it } from 'vitest';
import { confirmationMismatch, meetsAllRules, passwordHint, passwordSubmitError } from './password-rules';

describe('password rules (docs/reference.md#password-rules)', () => {
  it('says nothing for an empty or good password', () => {
    expect(passwordHint('')).toBeNull();
    expect(passwordHint('Abcdef1!')).toBeNull();
  });

  it('asks for the length first, then for the character classes', () => {
    expect(passwordHint('Ab1!')).toBe('Password must be at least 8 characters long');
    expect(passwordHint('abcdefgh')).toBe(
      'Password must contain uppercase, lowercase, numbers, and special characters',
    );
    expect(passwordHint('Abcdefg1')).toBe(
      'Password must contain uppercase, lowercase, numbers, and special characters',
    );
    expect(passwordHint('ABCDEFG1!')).toBe(
      'Password must contain uppercase, lowercase, numbers, and special characters',
    );
  });

  it('counts only the fixed special characters', () => {
    expect(meetsAllRules('Abcdefg1!')).toBe(true);
    expect(meetsAllRules('Abcdefg1£')).toBe(false);
    expect(meetsAllRules('Abcdefg1 ')).toBe(false);
  });

  it('blocks a submit with unmet rules, then with a mismatch', () => {
    expect(passwordSubmitError('short', 'short')).toBe('Please meet all password requirements');
    expect(passwordSubmitError('Abcdefg1!', 'Abcdefg1?')).toBe('Passwords do not match');
    expect(passwordSubmitError('Abcdefg1!', 'Abcdefg1!')).toBeNull();
  });

  it('shows a mismatch only once something is typed in the confirmation', () => {
    expect(confirmationMismatch('Abcdefg1!', '')).toBe(false);
    expect(confirmationMismatch('Abcdefg1!', 'A')).toBe(true);
    expect(confirmationMismatch('Abcdefg1!', 'Abcdefg1!')).toBe(false);
  });
});
