import { checkPassword, PASSWORD_MESSAGES, PASSWORD_SPECIALS, type PasswordChecks } from '@seatlink/contracts';

/**
 * The live checklist under a new password (register and reset), one line per rule (docs/reference.md "Password rules").
 */
export const PASSWORD_RULES: ReadonlyArray<{ key: keyof PasswordChecks; label: string }> = [
  { key: 'length', label: 'At least 8 characters' },
  { key: 'uppercase', label: 'An uppercase letter' },
  { key: 'lowercase', label: 'A lowercase letter' },
  { key: 'digit', label: 'A number' },
  { key: 'special', label: `A special character (${PASSWORD_SPECIALS})` },
];

export function meetsAllRules(password: string): boolean {
  return Object.values(checkPassword(password)).every(Boolean);
}

/**
 * What to say under the password while it is typed: nothing for an empty or good password, else the length message
 * first, then the character-classes message (PASSWORD_MESSAGES, docs/reference.md "Password rules").
 */
export function passwordHint(password: string): string | null {
  if (!password) return null;
  const checks = checkPassword(password);
  if (!checks.length) return PASSWORD_MESSAGES.tooShort;
  if (!(checks.uppercase && checks.lowercase && checks.digit && checks.special)) return PASSWORD_MESSAGES.classes;
  return null;
}

/** Shown under the confirmation once something is typed in it that differs from the password. */
export function confirmationMismatch(password: string, confirmation: string): boolean {
  return confirmation.length > 0 && confirmation !== password;
}

/**
 * Why the form may not be sent, or null when it may: unmet rules first ('Please meet all password requirements'),
 * then a mismatch ('Passwords do not match').
 */
export function passwordSubmitError(password: string, confirmation: string): string | null {
  if (!meetsAllRules(password)) return PASSWORD_MESSAGES.unmet;
  if (password !== confirmation) return PASSWORD_MESSAGES.mismatch;
  return null;
}
