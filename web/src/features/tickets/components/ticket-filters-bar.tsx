import { SearchField } from '../../../components/ui/search-field';
import { SelectField } from '../../../components/ui/select';
import { useMemo } from 'react';
import type { Account, Ticket } from '@seatlink/contracts';
import {
  accountOptions,
  eventOptions,
  STATUS_FILTER_OPTIONS,
  type StatusFilter,
  type TicketFilters,
} from '../ticket-filters';

/** docs/reference.md "Tickets Overview screen": the search box's placeholder, exactly. */
export const SEARCH_PLACEHOLDER = 'Search title, subtitle, venue, seat, account...';

export interface TicketFiltersBarProps {
  filters: TicketFilters;
  /** The tickets, whose events (and accounts the list does not know) the selects offer. */
  tickets: readonly Ticket[];
  /** The linked accounts; undefined until read. */
  linkedAccounts: readonly Account[] | undefined;
  onChange: (patch: Partial<TicketFilters>) => void;
}

/**
 * Search, account, status and event filters of the tickets overview (docs/reference.md "Tickets Overview screen"). The
 * selects' choices are worked out here, so only while the filters are shown (on a phone they are behind a button):
 * sorting the titles of 10,000 tickets is work a phone's first screen does not wait for.
 */
export function TicketFiltersBar({ filters, tickets, linkedAccounts, onChange }: TicketFiltersBarProps) {
  const events = useMemo(() => eventOptions(tickets), [tickets]);
  const accounts = useMemo(() => accountOptions(linkedAccounts ?? [], tickets), [linkedAccounts, tickets]);
  // A filter set to something no longer offered (an account deleted meanwhile) still shows what it is set to.
  const accountMissing = filters.selectedAccount !== '' && !accounts.some((a) => a.id === filters.selectedAccount);
  const eventMissing = filters.event !== '' && !events.includes(filters.event);
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
      <SearchField
        id="ticket-search"
        label="Search tickets"
        containerClassName="md:col-span-3"
        placeholder={SEARCH_PLACEHOLDER}
        value={filters.search}
        onChange={(event) => onChange({ search: event.target.value })}
      />
      <SelectField
        label="Account"
        hideLabel
        value={filters.selectedAccount}
        onChange={(event) => onChange({ selectedAccount: event.target.value })}
      >
        <option value="">All Accounts</option>
        {accounts.map((account) => (
          <option key={account.id} value={account.id}>
            {account.label}
          </option>
        ))}
        {accountMissing ? <option value={filters.selectedAccount}>Removed account</option> : null}
      </SelectField>
      <SelectField
        label="Status"
        hideLabel
        value={filters.status}
        onChange={(event) => onChange({ status: event.target.value as StatusFilter })}
      >
        {STATUS_FILTER_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Event"
        hideLabel
        value={filters.event}
        onChange={(event) => onChange({ event: event.target.value })}
      >
        <option value="">All Events</option>
        {events.map((title) => (
          <option key={title} value={title}>
            {title}
          </option>
        ))}
        {eventMissing ? <option value={filters.event}>{filters.event}</option> : null}
      </SelectField>
    </div>
  );
}
