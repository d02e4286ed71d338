import { queryOptions, useQuery } from '@tanstack/react-query';
import { querySlice } from '../../lib/query-slice';
import { listDuplicateTickets } from './api/list-duplicate-tickets';

/** The duplicate groups part of the admin slice (docs/reference.md "Duplicate group"). */
export const DUPLICATE_TICKETS_KEY = ['admin', 'duplicate-tickets'] as const;

export const duplicateTicketsQuery = queryOptions({
  queryKey: DUPLICATE_TICKETS_KEY,
  queryFn: () => listDuplicateTickets(),
});

/** The duplicate groups: data, loading, and 'Failed to fetch duplicate tickets' while there are none to show. */
export function useDuplicateTickets() {
  const query = useQuery(duplicateTicketsQuery);
  return { ...querySlice(query, 'Failed to fetch duplicate tickets'), retry: query.refetch };
}
