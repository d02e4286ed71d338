import { ChartIcon, PinIcon, TicketIcon, WalletIcon } from '../../../components/ui/icons';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCount, formatCredits, formatShare } from '../../../lib/format';
import { useMemo, type ReactNode } from 'react';
import type { Ticket } from '@seatlink/contracts';
import { computeTicketStats } from '../ticket-stats';

export interface TicketsStatsRowProps {
  balance: number;
  /** The tickets the stats count (the list shown). */
  tickets: readonly Ticket[];
  /**
   * The Top Up button (the top-up feature's, given by the app): docs/reference.md "Tickets Overview screen" puts it on
   * the credits card.
   */
  topUp?: ReactNode;
}

/**
 * The stats row (docs/reference.md "Tickets Overview screen"): Available Credits (with Top Up), Total Tickets,
 * Distribution Rate, Unique Venues. Two by two on a phone (compact cards), so the first ticket still shows on the first
 * screen.
 */
export function TicketsStatsRow({ balance, tickets, topUp }: TicketsStatsRowProps) {
  // Counted here, a component of its own: a new list is counted in a task apart from its indexing and layout.
  const stats = useMemo(() => computeTicketStats(tickets), [tickets]);
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      <StatCard
        label="Available Credits"
        value={formatCredits(balance)}
        valueTestId="available-credits"
        icon={<WalletIcon />}
        action={topUp}
      />
      <StatCard
        label="Total Tickets"
        value={formatCount(stats.total)}
        valueTestId="total-tickets"
        icon={<TicketIcon />}
      />
      <StatCard
        label="Distribution Rate"
        value={formatShare(stats.distributed, stats.total)}
        valueTestId="distribution-rate"
        detail={`${formatCount(stats.distributed)} of ${formatCount(stats.total)} distributed`}
        icon={<ChartIcon />}
      />
      <StatCard
        label="Unique Venues"
        value={formatCount(stats.uniqueVenues)}
        valueTestId="unique-venues"
        icon={<PinIcon />}
      />
    </div>
  );
}
