import { memo, type ComponentType, type MouseEvent, type ReactNode } from 'react';
import type { Ticket } from '@seatlink/contracts';
import { cx } from '../../../components/ui/cx';
import { CalendarIcon, type IconProps, PinIcon, TicketIcon, UserIcon } from '../../../components/ui/icons';
import { formatDateTime } from '../../../lib/format';
import { ticketStatus } from '../ticket-filters';
import { SelectTicketBox, type TicketSelection } from './select-box';
import { TicketLinkArea } from './ticket-link-area';
import { TicketLogo } from './ticket-logo';
import { TicketStatusBadge } from './ticket-status-badge';

export interface TicketCardProps {
  ticket: Ticket;
  selected?: boolean;
  /** Makes the card selectable (click or checkbox). */
  onToggle?: (ticketId: string) => void;
  /** Its distribution request is running. */
  distributing?: boolean;
  /** Epoch ms (useNow), for 'Expired'. */
  now: number;
}

/** Controls inside a card do their own thing: a click on them does not also tick the card. */
const OWN_CLICKS = 'a, button, input, label, select, textarea, [role="dialog"], dialog';

/**
 * A click on the card ticks or unticks it, unless it landed on one of its controls, or came from a dialog the card
 * opened (portalled elsewhere in the page, its clicks still bubble through React), or selected text.
 */
function onCardClick(event: MouseEvent<HTMLElement>, ticketId: string, selection: TicketSelection | undefined) {
  if (!selection) return;
  const target = event.target as Element;
  if (!event.currentTarget.contains(target) || target.closest(OWN_CLICKS)) return;
  if (window.getSelection()?.toString()) return;
  selection.onToggle(ticketId);
}

/**
 * One fact of a card: its icon as the term, named by its title (an SVG `<title>`, which lays out nothing; a visually
 * hidden text is an absolutely placed box, and four of them were about a quarter of a card's layout), and the fact.
 */
function Detail({
  icon: Icon,
  label,
  children,
}: {
  icon: ComponentType<IconProps>;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 items-start gap-2">
      <dt className="mt-0.5 shrink-0 text-slate-500">
        <Icon className="h-4 w-4" title={label} />
      </dt>
      <dd className="min-w-0 flex-1 text-slate-700">{children}</dd>
    </div>
  );
}

/**
 * One ticket of the overview's grid (docs/reference.md "Tickets Overview screen"): logo, title, subtitle, status,
 * venue, seat ('N/A' if missing), next game with its date, account e-mail, and the link part. A duplicate carries a
 * banner across its top.
 */
export const TicketCard = memo(function TicketCard({
  ticket,
  selected = false,
  onToggle,
  distributing,
  now,
}: TicketCardProps) {
  const selection: TicketSelection | undefined = onToggle ? { selected, onToggle } : undefined;
  const status = ticketStatus(ticket);
  const seat = ticket.seat?.seat_info_combined || 'N/A';
  const { next_game: nextGame, next_game_date: nextGameDate } = ticket.metadata ?? {};
  return (
    <article
      aria-labelledby={`ticket-title-${ticket.id}`}
      className={cx(
        'flex h-full flex-col overflow-hidden rounded-xl border bg-white shadow-sm',
        ticket.is_duplicate ? 'border-amber-300' : 'border-slate-200',
        selection && 'cursor-pointer',
        selection?.selected && 'ring-2 ring-indigo-500',
      )}
      data-testid="ticket-card"
      data-ticket-id={ticket.id}
      data-status={status}
      data-selected={selection?.selected ? 'true' : 'false'}
      onClick={(event) => onCardClick(event, ticket.id, selection)}
    >
      {ticket.is_duplicate ? (
        <p
          className="shrink-0 bg-amber-100 px-4 py-1.5 text-xs font-semibold text-amber-900"
          data-testid="duplicate-banner"
        >
          Duplicate: Cannot be distributed
        </p>
      ) : null}
      <div className="flex min-h-0 flex-1 flex-col gap-2.5 p-4">
        <header className="flex items-start gap-3">
          {/* Keyed by the ticket, as the link part is: the card's place passes to another ticket as the grid scrolls
              (CardGrid), and focus or an open dialog must not pass with it. */}
          {selection ? (
            <SelectTicketBox key={ticket.id} ticket={ticket} selection={selection} className="mt-1" />
          ) : null}
          <TicketLogo key={ticket.logo ?? ''} src={ticket.logo} size="md" />
          {/* Two lines of title and the subtitle's line, however short the title: cards of like data are alike tall. */}
          <div className="min-h-15 min-w-0 flex-1">
            <h3
              id={`ticket-title-${ticket.id}`}
              className="line-clamp-2 text-sm leading-5 font-semibold break-words text-slate-900"
              title={ticket.title}
              data-testid="ticket-title"
            >
              {ticket.title}
            </h3>
            <p className="truncate text-sm text-slate-600" title={ticket.subtitle ?? undefined}>
              {ticket.subtitle || '\u00a0'}
            </p>
          </div>
        </header>
        <div>
          <TicketStatusBadge status={status} />
        </div>

        <dl className="space-y-1 text-sm">
          <Detail icon={PinIcon} label="Venue">
            <span className="block truncate" title={ticket.venue_name ?? undefined}>
              {ticket.venue_name || 'N/A'}
            </span>
          </Detail>
          <Detail icon={TicketIcon} label="Seat">
            <span className="block truncate" title={seat} data-testid="ticket-seat">
              {seat}
            </span>
          </Detail>
          {nextGame || nextGameDate ? (
            <Detail icon={CalendarIcon} label="Next game">
              <span className="block truncate" title={nextGame ?? undefined}>
                {nextGame || 'Next game'}
              </span>
              {nextGameDate ? (
                <span className="block text-xs text-slate-600" data-testid="ticket-next-game-date">
                  {formatDateTime(nextGameDate)}
                </span>
              ) : null}
            </Detail>
          ) : null}
          <Detail icon={UserIcon} label="Account">
            <span className="block truncate" title={ticket.account_email} data-testid="ticket-account">
              {ticket.account_email}
            </span>
          </Detail>
        </dl>

        <div className="mt-auto">
          <TicketLinkArea key={ticket.id} ticket={ticket} distributing={distributing} now={now} />
        </div>
      </div>
    </article>
  );
});
