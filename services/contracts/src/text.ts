import { z } from 'zod';
import { schema } from './schema.js';

/**
 * Characters no text field accepts: C0 and C1 control characters (NUL included: PostgreSQL cannot store it) and the
 * bidirectional overrides, embeddings, isolates and marks, which make a name display reversed or out of order
 * ("Trojan Source" spoofing) in lists and e-mails.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const FORBIDDEN_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** A UTF-16 surrogate without its pair: not a character at all (and PostgreSQL refuses it in JSON). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether text holds a character no field accepts (see FORBIDDEN_CHARACTERS), or a broken one. */
export const hasForbiddenCharacters = (value: string) => FORBIDDEN_CHARACTERS.test(value) || LONE_SURROGATE.test(value);

export const notAllowedMessage = (label: string) => `${label} contains characters that are not allowed`;

/** A trimmed, required, bounded line of text without control or bidi-override characters. */
export function plainText(label: string, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`)
    .refine((value) => !hasForbiddenCharacters(value), notAllowedMessage(label));
}

/** An e-mail address: trimmed, lower-cased, at most 254 characters (RFC 5321), of a plain shape. */
export function emailAddress(invalidMessage: string) {
  return z
    .string({ error: 'Email is required' })
    .trim()
    .toLowerCase()
    .max(254, 'Email is too long')
    .email(invalidMessage);
}

/** An opaque token from a client (captcha): bounded, printable ASCII only; absent or null when there is none. */
export const clientToken = schema(() =>
  z
    .string()
    .max(4096, 'Token is too long')
    .regex(/^[\x21-\x7E]*$/, 'Token is not valid')
    .optional()
    .nullable(),
);
