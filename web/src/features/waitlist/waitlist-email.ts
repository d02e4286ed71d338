/** docs/reference.md "Form rules": text, an at sign, text, a dot, and an ending of 2 or more letters. */
export const WAITLIST_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';

export function isValidWaitlistEmail(email: string): boolean {
  return WAITLIST_EMAIL_PATTERN.test(email.trim());
}

/** The waitlist call's fallback failure text (docs/reference.md "Fallback texts"). */
export const WAITLIST_FAILED = 'Something went wrong';
