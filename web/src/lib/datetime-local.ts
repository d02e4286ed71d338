/**
 * Values of `<input type="datetime-local">` ('YYYY-MM-DDTHH:mm', the browser's own time zone): the link expiry of the
 * Distribution Settings modal and the audit log's date range (SPEC.md §2, §5). Built and read field by field, never
 * through Date's string parsing, so every browser reads them the same way.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The local 'YYYY-MM-DDTHH:mm' of an instant (seconds dropped), or 'YYYY-MM-DDTHH:mm:ss' with `seconds` (for a field
 * with step 1).
 */
export function toDateTimeLocalValue(date: Date | number, { seconds = false }: { seconds?: boolean } = {}): string {
  const d = typeof date === 'number' ? new Date(date) : date;
  const minutes = `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return seconds ? `${minutes}:${pad(d.getSeconds())}` : minutes;
}

/** The instant a datetime-local value names in the local time zone; null for anything else ('' included). */
export function parseDateTimeLocal(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hours, minutes] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const seconds = Number(match[6] ?? 0);
  const millis = Number((match[7] ?? '0').padEnd(3, '0'));
  const date = new Date(year, month - 1, day, hours, minutes, seconds, millis);
  // new Date rolls 31 Feb over into March: such a value is not a date.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  return date;
}

/** The first whole minute at or after `time` (epoch ms). */
export function ceilToMinute(time: number): number {
  return Math.ceil(time / 60_000) * 60_000;
}
