import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@seatlink/contracts';
import { querySlice } from '../../lib/query-slice';
import { getUserHistory } from './api/get-user-history';
import { listUserAudits } from './api/list-user-audits';
import { auditQuery, type AuditFilters } from './audit-filters';

/** docs/reference.md "Fallback texts": the audit list's fallback error. */
export const AUDITS_FETCH_FAILED = 'Failed to fetch user audits';
export const HISTORY_FETCH_FAILED = 'Failed to load the history of this user';

/** A user's audit log, one query per filter set (a live push reads the user's entries again). */
export const auditsKey = (userId: string) => ['admin', 'audits', userId] as const;

/** The page of `userId`'s log the filters ask for; a rolling range (Last 7 days) ends when it is read. */
export const auditsQuery = (userId: string, filters: AuditFilters, now: () => number = Date.now) =>
  queryOptions({
    queryKey: [...auditsKey(userId), filters],
    queryFn: () => listUserAudits(userId, auditQuery(filters, now())),
    // Other filters of the same user keep the rows on screen until their answer comes; another user's never show.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === userId ? previous : undefined),
  });

const NO_ENTRIES: AuditEntry[] = [];

/**
 * The page shown (docs/reference.md "Screen state": audits, loading, error); an answer for these filters is `loaded`.
 */
export function useUserAudits(userId: string, filters: AuditFilters, enabled: boolean) {
  const query = useQuery({ ...auditsQuery(userId, filters), enabled });
  const answered = query.isPlaceholderData ? undefined : query.data;
  const { loading, error } = querySlice({ ...query, data: answered }, AUDITS_FETCH_FAILED);
  return { audits: query.data?.audits ?? NO_ENTRIES, loading, loaded: query.data !== undefined, error };
}

/** What the replay panel asked: a user at a moment (ISO). A moment that has passed never changes: read once. */
export const userHistoryQuery = (userId: string, at: string) =>
  queryOptions({
    queryKey: ['admin', 'user-history', userId, at],
    queryFn: () => getUserHistory(userId, at),
    staleTime: Infinity,
  });
