import { BadRequestException } from '@nestjs/common';
import { DISTRIBUTION_MESSAGES, MAX_LINK_EXPIRY_MS, MIN_LINK_EXPIRY_MS } from '@seatlink/contracts';

/** An expiry entered a moment before the hour's mark still counts as an hour ahead (the form's minute). */
const SLACK_MS = 60_000;

/**
 * A link's expiry must be at least an hour ahead and at most five years (docs/reference.md "Link rules"), judged at
 * `now` — the database's clock (shared/clock.ts), not the process's, so a process whose clock is wrong never makes, nor
 * charges for, a link that is dead on arrival. The body's schema checks the value's form; this, its distance from now.
 * A 400 as the schema's own (`expiry_date: …`), before anything is written or paid.
 */
export function checkLinkExpiry(expiresAt: string | null | undefined, now: Date): void {
  if (expiresAt === null || expiresAt === undefined) return;
  const at = Date.parse(expiresAt);
  if (at < now.getTime() + MIN_LINK_EXPIRY_MS - SLACK_MS) {
    throw new BadRequestException(`expiry_date: ${DISTRIBUTION_MESSAGES.expiryTooSoon}`);
  }
  if (at > now.getTime() + MAX_LINK_EXPIRY_MS) {
    throw new BadRequestException(`expiry_date: ${DISTRIBUTION_MESSAGES.expiryTooLate}`);
  }
}
