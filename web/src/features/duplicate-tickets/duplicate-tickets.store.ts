import type { DuplicateGroupsResponse } from '@seatlink/contracts';
import { createResourceStore } from '../../lib/resource-store';
import { listDuplicateTickets } from './api/list-duplicate-tickets';

/** The duplicate groups part of the admin slice (SPEC.md §3 Duplicate group). */
export const useDuplicateTicketsStore = createResourceStore<DuplicateGroupsResponse>(
  listDuplicateTickets,
  'Failed to fetch duplicate tickets',
);
