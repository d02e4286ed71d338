import { memo, useId } from 'react';
import type { AccountTicket } from '@seatlink/contracts';
import { CopyLinkButton, LinkLine, OpenLinkButton } from '../../../components/distribution/link-controls';
import { LinkFacts } from '../../../components/distribution/link-facts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { cx } from '../../../components/ui/cx';
import { DISTRIBUTION_TEXTS, needCreditsText } from '../../../lib/distribution';
import type { TicketLinkInfo } from '../accounts.queries';

/** Every card has this height, so the grid can be windowed (an account may hold thousands of passes). */
export const ACCOUNT_TICKET_CARD_HEIGHT = 288;

function SeatPart({ label, value, className }: { label: string; value: string | null; className?: string }) {
  return (
    <div
      className={cx('min-w-0 rounded-lg bg-slate-50 px-2.5 py-1.5', className)}
      data-testid={`ticket-${label.toLowerCase()}`}
    >
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="truncate text-sm font-medium text-slate-900" title={value ?? undefined}>
        {value || 'N/A'}
      </dd>
    </div>
  );
}

/** Why this one ticket cannot get a link now, or null when it can. */
export function generateBlocker(
  info: { duplicate: boolean; distributed: boolean },
  balance: number,
  cost: number,
): string | null {
  if (info.duplicate) return 'Cannot distribute duplicate tickets';
  if (info.distributed) return 'This ticket already has a link';
  if (balance < cost) return needCreditsText(cost, balance);
  return null;
}

export interface AccountTicketCardProps {
  ticket: AccountTicket;
  /** Its live link and duplicate flag (GET /v1/tickets), once known. */
  info: TicketLinkInfo | undefined;
  distributing: boolean;
  balance: number;
  cost: number;
  now: number;
  onGenerate: (ticketId: string) => void;
}

/**
 * One ticket of an account (docs/reference.md "Accounts screens"): event, section, row and seat, its status, and either
 * its link (cut to 30 characters, Copy and Open, clicks and expiry) or a working Generate Link button.
 */
export const AccountTicketCard = memo(function AccountTicketCard({
  ticket,
  info,
  distributing,
  balance,
  cost,
  now,
  onGenerate,
}: AccountTicketCardProps) {
  const reasonId = useId();
  const duplicate = info?.is_duplicate ?? false;
  const distribution = info ? info.distribution : null;
  const distributed = info ? distribution !== null : ticket.is_distributed;
  const blocker = generateBlocker({ duplicate, distributed }, balance, cost);

  return (
    <article
      aria-labelledby={`account-ticket-${ticket.id}`}
      className="flex h-full flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="account-ticket"
      data-ticket-id={ticket.id}
    >
      <header className="flex items-start justify-between gap-3">
        <h2
          id={`account-ticket-${ticket.id}`}
          className="line-clamp-2 text-sm font-semibold text-slate-900"
          title={ticket.event_name}
          data-testid="account-ticket-event"
        >
          {ticket.event_name}
        </h2>
        {duplicate ? (
          <Badge tone="amber" testId="ticket-distributed">
            Duplicate
          </Badge>
        ) : distributed ? (
          <Badge tone="green" testId="ticket-distributed">
            Distributed
          </Badge>
        ) : (
          <Badge tone="slate" testId="ticket-distributed">
            Not Distributed
          </Badge>
        )}
      </header>
      <dl className="grid grid-cols-2 gap-2">
        <SeatPart label="Section" value={ticket.section} className="col-span-2" />
        <SeatPart label="Row" value={ticket.row} />
        <SeatPart label="Seat" value={ticket.seat} />
      </dl>
      <div className="mt-auto">
        {distributing ? (
          <p
            role="status"
            className="rounded-lg bg-indigo-50 px-3 py-2 text-sm font-medium text-indigo-700 motion-safe:animate-pulse"
            data-testid="account-ticket-distributing"
          >
            {DISTRIBUTION_TEXTS.distributing}
          </p>
        ) : distribution ? (
          <div className="space-y-1.5 rounded-lg bg-slate-50 px-3 py-2" data-testid="account-ticket-link">
            <LinkLine link={distribution.link} className="gap-1">
              <CopyLinkButton link={distribution.link} />
              <OpenLinkButton link={distribution.link} />
            </LinkLine>
            <LinkFacts link={distribution} now={now} />
          </div>
        ) : (
          <div className="space-y-1">
            <Button
              size="sm"
              variant="secondary"
              className="w-full"
              disabled={blocker !== null}
              title={blocker ?? undefined}
              aria-describedby={blocker ? reasonId : undefined}
              onClick={() => onGenerate(ticket.id)}
              data-testid="generate-link"
            >
              Generate Link
            </Button>
            {blocker ? (
              <p id={reasonId} className="text-center text-xs text-slate-600" data-testid="generate-reason">
                {blocker}
              </p>
            ) : null}
          </div>
        )}
      </div>
    </article>
  );
});
