/**
 * What the QR dialog's downloads are called (docs/reference.md "Tickets Overview screen"): `seatlink-<event>-<seat>`
 * and the extension, each part made safe for any file system — letters without their accents, digits and single
 * hyphens only, lower case, no leading or trailing hyphen, each part cut to a length that keeps the whole well under
 * the 255 bytes file systems take. A ticket without a seat is `seatlink-<event>`; an event with nothing left,
 * `ticket`.
 */

const PART_MAX = 60;

/** 'Harbourside Athletic vs Northgate Rovers' → 'harbourside-athletic-vs-northgate-rovers'. */
export function fileNamePart(text: string | null | undefined): string {
  if (!text) return '';
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, PART_MAX)
    .replace(/^-+|-+$/g, '');
}

export function qrFileName(event: string, seat: string | null | undefined, extension: 'png' | 'svg'): string {
  const parts = ['seatlink', fileNamePart(event) || 'ticket', fileNamePart(seat)].filter(Boolean);
  return `${parts.join('-')}.${extension}`;
}
