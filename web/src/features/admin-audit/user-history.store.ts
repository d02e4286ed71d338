import type { UserStateAt } from '@seatlink/contracts';
import { createResourceStore } from '../../lib/resource-store';
import { getUserHistory } from './api/get-user-history';

/** What the replay panel asks: a user at a moment (ISO). */
export interface HistoryQuery {
  userId: string;
  at: string;
}

/** The key of one question, so an answer is never shown for another user or moment. */
export const historyKey = ({ userId, at }: HistoryQuery) => `${userId}@${at}`;

/** The replay panel's answer: the user's state at a moment (GET /v1/admin/users/{id}/history). */
export const useUserHistoryStore = createResourceStore<UserStateAt, string>((key) => {
  const at = key.slice(key.indexOf('@') + 1);
  return getUserHistory(key.slice(0, key.indexOf('@')), at);
}, 'Failed to load the history of this user');
