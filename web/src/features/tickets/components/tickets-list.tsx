import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import type { Ticket } from '@seatlink/contracts';
import { cx } from '../../../components/ui/cx';
import { SortIcon } from '../../../components/ui/icons';
import { formatDateTime } from '../../../lib/format';
import { slotKey, useElementPlacement, usePageVirtualizer } from '../../../lib/use-page-virtualizer';
import { clockOf } from '../ticket-clock';
import { ticketStatus, type SortKey, type TicketSort } from '../ticket-filters';
import { SelectBox, SelectTicketBox } from './select-box';
import { TicketLinkArea } from './ticket-link-area';
import { TicketLogo } from './ticket-logo';
import { TicketStatusBadge } from './ticket-status-badge';

/** Every row has this height, so the list can be windowed without measuring its rows. */
export const TICKET_ROW_HEIGHT = 68;

interface Column {
  label: string;
  sortKey?: SortKey;
  width: string;
}

/**
 * The list view's columns (docs/reference.md "Tickets Overview screen"); Event, Next Game (by its date), Account and
 * Status sort. Status and Link/Actions take what their content needs (the badge; the 30-character link over its facts
 * and buttons). Seat, Next Game and Account are narrow up to a 1,440 px window (each wraps or ellipsises its text, the
 * whole of it in a tooltip) and wider beyond; Event takes all the rest, so at 1,280 px an event name of 30 characters
 * shows whole (on two lines when it must), and every pixel past the others' widest goes to it.
 */
const SHARED = 'w-[6.5rem] min-[1440px]:w-[9rem] min-[1680px]:w-[11rem]';
const COLUMNS: readonly Column[] = [
  { label: 'Event', sortKey: 'event', width: '' },
  { label: 'Seat Info', width: SHARED },
  { label: 'Next Game', sortKey: 'date', width: SHARED },
  { label: 'Account', sortKey: 'account', width: SHARED },
  { label: 'Status', sortKey: 'status', width: 'w-[8rem]' },
  { label: 'Link/Actions', width: 'w-[18rem]' },
];

const cell = 'px-2 align-middle shadow-[inset_0_-1px_0] shadow-slate-100';

const TicketRow = memo(function TicketRow({
  ticket,
  rowIndex,
  selected,
  onToggle,
  distributing,
  now,
}: {
  ticket: Ticket;
  rowIndex: number;
  selected: boolean;
  onToggle: (ticketId: string) => void;
  distributing: boolean;
  now: number;
}) {
  const seat = ticket.seat?.seat_info_combined || 'N/A';
  const { next_game: nextGame, next_game_date: nextGameDate } = ticket.metadata ?? {};
  return (
    <tr
      aria-rowindex={rowIndex}
      style={{ height: TICKET_ROW_HEIGHT }}
      className={cx('bg-white', ticket.is_duplicate && 'bg-amber-50/40', selected && 'bg-indigo-50/60')}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      data-selected={selected ? 'true' : 'false'}
    >
      <td className={cell}>
        <div className="flex items-center gap-2">
          {/* Keyed by the ticket, as the link part is: the row passes to another ticket as the list scrolls, and
              focus or an open dialog must not pass with it. */}
          <SelectTicketBox key={ticket.id} ticket={ticket} selection={{ selected, onToggle }} />
          <TicketLogo key={ticket.logo ?? ''} src={ticket.logo} size="sm" />
          <div className="min-w-0">
            {/* Two lines when it must (the row has room for them over the subtitle), then an ellipsis. */}
            <p
              className="line-clamp-2 leading-5 font-medium break-words text-slate-900"
              title={ticket.title}
              data-testid="ticket-title"
            >
              {ticket.title}
            </p>
            <p className="truncate text-xs text-slate-600" title={ticket.subtitle ?? undefined}>
              {ticket.subtitle}
            </p>
          </div>
        </div>
      </td>
      <td className={cell}>
        <p className="line-clamp-3 text-xs break-words text-slate-700" title={seat} data-testid="ticket-seat">
          {seat}
        </p>
      </td>
      <td className={cell}>
        {nextGame || nextGameDate ? (
          <>
            <p className="truncate text-slate-700" title={nextGame ?? undefined}>
              {nextGame || '—'}
            </p>
            <p className="line-clamp-2 text-xs text-slate-600" data-testid="ticket-next-game-date">
              {formatDateTime(nextGameDate)}
            </p>
          </>
        ) : (
          <span className="text-slate-600">—</span>
        )}
      </td>
      <td className={cell}>
        <p className="truncate text-slate-700" title={ticket.account_email} data-testid="ticket-account">
          {ticket.account_email}
        </p>
      </td>
      <td className={cell}>
        <TicketStatusBadge status={ticketStatus(ticket)} />
      </td>
      <td className={cell}>
        <TicketLinkArea key={ticket.id} ticket={ticket} compact distributing={distributing} now={now} />
      </td>
    </tr>
  );
});

const rowSize = () => TICKET_ROW_HEIGHT;

/** The select-all box: ticks every ticket the list shows (the filters applied); mixed when some are ticked. */
function SelectAll({ state, onChange }: { state: 'none' | 'some' | 'all'; onChange: (selected: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <SelectBox
      ref={ref}
      checked={state === 'all'}
      onChange={() => onChange(state !== 'all')}
      aria-label="Select all tickets"
      data-testid="select-all"
    />
  );
}

function SortHeader({
  column,
  sort,
  onSort,
  before,
}: {
  column: Column;
  sort: TicketSort | null;
  onSort: (key: SortKey) => void;
  before?: ReactNode;
}) {
  const key = column.sortKey;
  const active = key !== undefined && sort?.key === key ? sort.direction : null;
  return (
    <th
      scope="col"
      aria-sort={key ? (active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none') : undefined}
      className={cx('px-2 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase', column.width)}
    >
      {before ? <span className="mr-2 inline-flex align-middle">{before}</span> : null}
      {key ? (
        <button
          type="button"
          onClick={() => onSort(key)}
          className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
          data-testid={`sort-${key}`}
        >
          {column.label}
          <SortIcon sortOrder={active} className={cx('h-4 w-4', active ? 'text-indigo-600' : 'text-slate-400')} />
        </button>
      ) : (
        column.label
      )}
    </th>
  );
}

export interface TicketsListProps {
  tickets: readonly Ticket[];
  sort: TicketSort | null;
  onSort: (key: SortKey) => void;
  selectedIds: ReadonlySet<string>;
  onToggle: (ticketId: string) => void;
  /** Ticks or unticks every ticket of the list. */
  onSelectAll: (selected: boolean) => void;
  distributingIds: ReadonlySet<string>;
  now: number;
}

/**
 * The list view (docs/reference.md "Tickets Overview screen"): a table whose rows near the viewport are rendered and
 * the rest stand in as space, so 10,000 tickets scroll like 20. The table tells assistive technology its full row count
 * and each row's place.
 */
export function TicketsList({
  tickets,
  sort,
  onSort,
  selectedIds,
  onToggle,
  onSelectAll,
  distributingIds,
  now,
}: TicketsListProps) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const { top, placed } = useElementPlacement(bodyRef);
  const virtualizer = usePageVirtualizer({
    count: tickets.length,
    sizeOf: rowSize,
    keyOf: useCallback((index: number) => tickets[index]!.id, [tickets]),
    overscan: 2,
    top,
  });
  const rows = placed ? virtualizer.getVirtualItems() : [];
  const start = rows[0]?.index ?? 0;
  const end = rows.length > 0 ? rows[rows.length - 1]!.index + 1 : 0;
  const before = start * TICKET_ROW_HEIGHT;
  const after = (tickets.length - end) * TICKET_ROW_HEIGHT;
  // Counted once per list or selection, not at every frame of a scroll.
  const allState = useMemo(() => {
    let ticked = 0;
    for (const ticket of tickets) if (selectedIds.has(ticket.id)) ticked++;
    return ticked === 0 ? 'none' : ticked === tickets.length ? 'all' : 'some';
  }, [tickets, selectedIds]);

  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table
        className="w-full min-w-[60rem] table-fixed border-collapse text-sm"
        aria-label="Tickets"
        aria-rowcount={tickets.length + 1}
        data-testid="tickets-table"
      >
        <thead className="bg-slate-50">
          <tr aria-rowindex={1}>
            {COLUMNS.map((column, i) => (
              <SortHeader
                key={column.label}
                column={column}
                sort={sort}
                onSort={onSort}
                before={i === 0 ? <SelectAll state={allState} onChange={onSelectAll} /> : undefined}
              />
            ))}
          </tr>
        </thead>
        <tbody ref={bodyRef}>
          {before > 0 ? (
            <tr aria-hidden="true" style={{ height: before }}>
              <td colSpan={COLUMNS.length} />
            </tr>
          ) : null}
          {tickets.slice(start, end).map((ticket, i) => (
            <TicketRow
              // Its slot: a row scrolling in takes the elements of one scrolling out (lib/use-page-virtualizer.ts).
              key={slotKey(start + i, end - start)}
              ticket={ticket}
              rowIndex={start + i + 2}
              selected={selectedIds.has(ticket.id)}
              onToggle={onToggle}
              distributing={distributingIds.has(ticket.id)}
              now={clockOf(ticket, now)}
            />
          ))}
          {after > 0 ? (
            <tr aria-hidden="true" style={{ height: after }}>
              <td colSpan={COLUMNS.length} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
