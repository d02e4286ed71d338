import { hasForbiddenCharacters, MAX_CREDITS_REASON_LENGTH } from '@seatlink/contracts';

/**
 * The credits form value (docs/reference.md "Admin form rules") as a number, or null when it is not
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

/**
 * What is wrong with the reason an admin gives for setting credits, as the server would say it (required, one line of
 * at most MAX_CREDITS_REASON_LENGTH characters, no control or bidi characters); null when it can be sent.
 */
export function reasonError(reason: string): string | null {
  const text = reason.trim();
  if (!text) return 'Reason is required';
  if (text.length > MAX_CREDITS_REASON_LENGTH)
    return `Reason is too long (at most ${MAX_CREDITS_REASON_LENGTH} characters)`;
  if (hasForbiddenCharacters(text)) return 'Reason contains characters that are not allowed';
  return null;
}
