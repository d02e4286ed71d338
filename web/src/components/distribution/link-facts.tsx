import type { ReactNode } from 'react';
import {
  clicksLabel,
  DISTRIBUTION_TEXTS,
  formatLinkExpiry,
  isExpired,
  isLimitReached,
  isUnlimited,
  type LinkFacts as LinkFactsData,
} from '../../lib/distribution';
import { countOf, formatDateTime } from '../../lib/format';
import { Badge } from '../ui/badge';
import { cx } from '../ui/cx';

export interface LinkFactsProps {
  link: LinkFactsData;
  /** Epoch ms (useNow): 'Expired' follows the clock. */
  now: number;
  /** One tight line (a table row). */
  compact?: boolean;
  /** Drawn after the clicks (the click timeline). */
  chart?: ReactNode;
}

/**
 * A link's details (docs/reference.md "Tickets Overview screen"): clicks used out of the limit (∞ when unlimited) with
 * 'Limit Reached' once they reach it, and the expiry (day, short month, 24-hour time, or 'Never') with 'Expired' once
 * it has passed.
 */
export function LinkFacts({ link, now, compact = false, chart }: LinkFactsProps) {
  const limitReached = isLimitReached(link);
  const expired = isExpired(link, now);
  const limitText = isUnlimited(link.max_clicks) ? 'unlimited' : `at most ${link.max_clicks}`;
  return (
    <div
      className={cx(
        'flex min-w-0 items-center gap-y-1 text-xs text-slate-600',
        // One line in a table row (its height is fixed); on a card the clicks and the expiry are a line each, whatever
        // the card's width, so the card is as tall as its grid laid it out (features/tickets/ticket-card-height.ts).
        compact ? 'gap-x-2 overflow-hidden whitespace-nowrap' : 'flex-col items-start',
      )}
      data-testid="link-facts"
    >
      <span className={cx('inline-flex items-center gap-1.5', !compact && 'h-5')}>
        <span className={compact ? 'sr-only' : undefined}>Clicks</span>
        <span
          className="font-semibold whitespace-nowrap text-slate-900 tabular-nums"
          data-testid="link-clicks"
          aria-label={`${countOf(link.clicks, 'click')}, ${limitText}`}
        >
          {clicksLabel(link)}
        </span>
        {limitReached ? (
          <Badge tone="red" testId="limit-reached">
            {DISTRIBUTION_TEXTS.limitReached}
          </Badge>
        ) : null}
        {chart}
      </span>
      <span className={cx('inline-flex items-center gap-1.5', !compact && 'h-5')}>
        <span className={compact ? 'sr-only' : undefined}>Expires</span>
        <span
          className="font-medium whitespace-nowrap text-slate-800"
          data-testid="link-expiry"
          title={link.expiry ? formatDateTime(link.expiry) : undefined}
        >
          {formatLinkExpiry(link.expiry)}
        </span>
        {expired ? (
          <Badge tone="amber" testId="link-expired">
            {DISTRIBUTION_TEXTS.expired}
          </Badge>
        ) : null}
      </span>
    </div>
  );
}
