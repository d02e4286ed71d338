import type { BatchLinkResult } from '@seatlink/contracts';
import { countOf, formatCount } from '../../lib/format';
import { ACCOUNT_MESSAGES } from './accounts.queries';

/** How a batch add ended: every account added, some of them, or none. */
export type BatchOutcomeKind = 'all' | 'some' | 'none';

export interface BatchOutcome {
  kind: BatchOutcomeKind;
  /**
   * What the dialog says first: how many were added, or 'Failed to add accounts' when none was
   * (docs/reference.md "Fallback texts").
   */
  title: string;
  added: string[];
  /**
   * Each refused account and why (the server's reason, or 'Failed to add account': docs/reference.md "Fallback texts").
   */
  failed: Array<{ email: string; reason: string }>;
}

/**
 * The result of POST /v1/accounts/batch as the user reads it. Each account is linked or refused on its own, so a
 * batch with some of each is neither a failure nor a success: it says how many were added and which were not, and
 * why. Only a batch of which nothing was added is the red 'Failed to add accounts'.
 */
export function batchOutcome(results: readonly BatchLinkResult[]): BatchOutcome {
  const added = results.filter((r) => r.account).map((r) => r.email);
  const failed = results
    .filter((r) => !r.account)
    .map((r) => ({ email: r.email, reason: r.error?.message || ACCOUNT_MESSAGES.addOneFailed }));
  if (failed.length === 0) {
    return { kind: 'all', title: `${accounts(added.length)} added`, added, failed };
  }
  if (added.length === 0) return { kind: 'none', title: ACCOUNT_MESSAGES.addManyFailed, added, failed };
  return { kind: 'some', title: `${formatCount(added.length)} of ${accounts(results.length)} added`, added, failed };
}

const accounts = (n: number) => countOf(n, 'account');
