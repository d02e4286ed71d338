/**
 * Calendar dates typed as the product shows them, en-GB day/month/year (SPEC.md §9), whatever the browser's locale.
 *
 * Why not `<input type="date">`: Chromium draws a native date field in the browser's own locale (mm/dd/yyyy in an
 * en-US browser), and neither `lang="en-GB"` on the document nor anything else a page can set changes that. So date
 * fields are text fields that read dd/mm/yyyy and hand the API an ISO date (YYYY-MM-DD).
 */

export const EN_GB_DATE_FORMAT = 'dd/mm/yyyy';

/**
 * 'dd/mm/yyyy' (day and month may have one digit; '/', '.' or '-' between them) as 'YYYY-MM-DD', or null when the
 * text is not a real calendar date in that form.
 */
export function parseEnGbDate(text: string): string | null {
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 'YYYY-MM-DD' as 'dd/mm/yyyy'; other text is returned unchanged. */
export function formatIsoAsEnGb(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : iso;
}
