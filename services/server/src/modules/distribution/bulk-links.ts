import type { BulkLinkFailure } from '@seatlink/contracts';
import pLimit from 'p-limit';
import { v5 as uuidv5 } from 'uuid';
import { DomainError } from '../../shared/event-sourcing/decider.js';

const LINK_COMMAND_NAMESPACE = '9e3c2b1a-7d4f-4c8e-a6b5-3f2e1d0c9b8a';

/** Links of one bulk request worked on at once. */
const AT_ONCE = 8;

/**
 * The command id of one link of a bulk request: derived from the request's (its Idempotency-Key), so a retry of the
 * request repeats each link's own command, which then appends nothing new.
 */
export const linkCommandId = (commandId: string, distributionId: string) =>
  uuidv5(`${commandId}:${distributionId}`, LINK_COMMAND_NAMESPACE);

/**
 * Runs `each` for every link of a bulk request (a few at once), each link on its own: a link refused (a DomainError:
 * not the caller's, recalled...) is listed in `failed` with its code and message, the others go on. Any other error
 * (the database went away) fails the request: a retry with its Idempotency-Key does again only what was not done.
 */
export async function forEachLink<T>(
  distributionIds: readonly string[],
  each: (distributionId: string) => Promise<T>,
): Promise<{ done: T[]; failed: BulkLinkFailure[] }> {
  const limit = pLimit(AT_ONCE);
  // In the request's order, whichever finished first.
  const outcomes: Array<{ done: T } | { failed: BulkLinkFailure }> = [];
  await Promise.all(
    distributionIds.map((distributionId, i) =>
      limit(async () => {
        try {
          outcomes[i] = { done: await each(distributionId) };
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          outcomes[i] = { failed: { distribution_id: distributionId, code: err.code, message: err.message } };
        }
      }),
    ),
  );
  return {
    done: outcomes.flatMap((o) => ('done' in o ? [o.done] : [])),
    failed: outcomes.flatMap((o) => ('failed' in o ? [o.failed] : [])),
  };
}
