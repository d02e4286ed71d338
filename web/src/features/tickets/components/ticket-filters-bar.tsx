import { SearchField } from '../../../components/ui/search-field';
import { SelectField } from '../../../components/ui/select';
import { STATUS_FILTER_OPTIONS, type AccountOption, type StatusFilter, type TicketFilters } from '../ticket-filters';

/** SPEC.md §2: the search box's placeholder, exactly. */
export const SEARCH_PLACEHOLDER = 'Search title, subtitle, venue, seat, account...';

export interface TicketFiltersBarProps {
  filters: TicketFilters;
  accounts: readonly AccountOption[];
  events: readonly string[];
  onChange: (patch: Partial<TicketFilters>) => void;
}

/** Search, account, status and event filters of the tickets overview (SPEC.md §2). */
export function TicketFiltersBar({ filters, accounts, events, onChange }: TicketFiltersBarProps) {
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
