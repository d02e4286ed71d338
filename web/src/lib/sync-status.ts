import { formatMinutesAgo } from './format';

/**
 * docs/reference.md "Limits and constants": a sync is recent under one hour; after that (or never) the account reads
 * 'Needs sync'.
 */
export const RECENT_SYNC_MS = 60 * 60 * 1000;

export type SyncStatus = { kind: 'recent'; label: string } | { kind: 'needs-sync'; label: 'Needs sync' };

/**
 * A wallet account's sync status (docs/reference.md "Wallet account states"): 'Synced 5 min ago' (en-GB) when the last
 * sync was under an hour before `now`, else 'Needs sync'. Shared by the accounts overview and the admin accounts page.
 */
export function syncStatus(lastSyncedAt: string | null, now: number): SyncStatus {
  const at = lastSyncedAt ? Date.parse(lastSyncedAt) : NaN;
  if (!Number.isFinite(at)) return { kind: 'needs-sync', label: 'Needs sync' };
  const age = now - at;
  if (age >= RECENT_SYNC_MS) return { kind: 'needs-sync', label: 'Needs sync' };
  // A clock a little behind the server's gives a negative age: that is just now.
  return { kind: 'recent', label: `Synced ${formatMinutesAgo(Math.max(0, age) / 60_000)}` };
}
