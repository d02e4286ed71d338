/**
 * Text from the wallet provider is outside input: it lands in events (PostgreSQL's jsonb refuses U+0000 and lone
 * surrogates, which would make every sync of the account fail) and on pages (a right-to-left override shows a venue
 * reversed). Every string the provider sends goes through here before anything keeps or shows it; the projections run
 * it again over what older events hold, so a rebuild cannot bring such text back.
 */

/** Bounds of what a ticket keeps of a pass (longer text is cut). */
export const PASS_TEXT_LIMITS = {
  title: 200,
  subtitle: 300,
  venueName: 200,
  section: 100,
  row: 50,
  seat: 50,
  nextGame: 200,
} as const;

/** Lone surrogates: a high one not followed by a low one, a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Line breaks and other spacing controls: a space, so words stay apart. */
const SPACING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/**
 * Dropped: the other C0 and C1 controls and DEL, bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), the directional marks (U+200E, U+200F, U+061C), and the byte-order mark.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\uFEFF]/g;

/** The three, tested without a global flag (a global regular expression's `test` moves on from its last match). */
const UNSAFE = [LONE_SURROGATE, SPACING, INVISIBLE].map((re) => new RegExp(re.source));

/** Whether `text` holds anything {@link cleanText} would change (but for its length bound and spaces). */
export const hasUnsafeCharacters = (text: string): boolean => UNSAFE.some((re) => re.test(text));

/**
 * Printable ASCII words with single spaces between them: text {@link cleanText} leaves as it is (within its bound),
 * as nearly all of a provider's is. One test instead of six passes over it, for every field of every pass of a sync.
 */
const PLAIN = /^(?:[\x21-\x7E]+(?: [\x21-\x7E]+)*)?$/;

/** Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair. */
function bound(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * One line of provider text, safe to store and to show: lone surrogates become U+FFFD, it is put in Unicode NFC,
 * line breaks become spaces, control and bidirectional formatting characters are dropped, runs of spaces become one,
 * it is trimmed and cut to `max` UTF-16 units. (The input is cut first to a multiple of the bound, so a huge string
 * costs no more than a small one.)
 */
export function cleanText(text: string, max: number): string {
  if (text.length <= max && PLAIN.test(text)) return text;
  const head = bound(text, max * 4);
  const cleaned = head
    .replace(LONE_SURROGATE, '\uFFFD')
    .normalize('NFC')
    .replace(SPACING, ' ')
    .replace(INVISIBLE, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return bound(cleaned, max).trimEnd();
}

/** {@link cleanText} for an optional field: nothing left is null. */
export function cleanOptionalText(text: string | null | undefined, max: number): string | null {
  if (text === null || text === undefined) return null;
  const cleaned = cleanText(text, max);
  return cleaned === '' ? null : cleaned;
}
