import type { ComponentProps } from 'react';
import type { Ticket } from '@seatlink/contracts';
import { cx } from '../../../components/ui/cx';

/** A ticket's selection (docs/reference.md "Tickets Overview screen": selectable by click or checkbox). */
export interface TicketSelection {
  selected: boolean;
  onToggle: (ticketId: string) => void;
}

/** The checkbox of the tickets' selection: one ticket's, or the list's select-all. */
export function SelectBox({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <input
      type="checkbox"
      className={cx('h-4 w-4 shrink-0 cursor-pointer rounded border-slate-300 accent-indigo-600', className)}
      {...props}
    />
  );
}

/** Ticks or unticks one ticket, named by its title. */
export function SelectTicketBox({
  ticket,
  selection,
  className,
}: {
  ticket: Pick<Ticket, 'id' | 'title'>;
  selection: TicketSelection;
  className?: string;
}) {
  return (
    <SelectBox
      checked={selection.selected}
      onChange={() => selection.onToggle(ticket.id)}
      aria-label={`Select ${ticket.title}`}
      className={className}
      data-testid="select-ticket"
    />
  );
}
