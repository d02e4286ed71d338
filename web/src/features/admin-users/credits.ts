/**
 * The credits form value (SPEC.md §5 "Credits form: integer, minimum 0, step 1") as a number, or null when it is not
 * a whole number of at least 0.
 */
export function parseCredits(value: string): number | null {
  const text = value.trim();
  if (!/^\d+$/.test(text)) return null;
  const credits = Number(text);
  return Number.isSafeInteger(credits) ? credits : null;
}

/** Under the credits field when its value cannot be sent. */
export const CREDITS_INVALID_MESSAGE = 'Use a whole number, 0 or more';
