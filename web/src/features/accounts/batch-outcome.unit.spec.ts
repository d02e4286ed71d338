import type { Account, BatchLinkResult } from '@seatlink/contracts';
import { describe, expect, it } from 'vitest';
import { batchOutcome } from './batch-outcome';

const account = (email: string) => ({ id: email, email }) as Account;
const added = (email: string): BatchLinkResult => ({ email, account: account(email) });
const refused = (email: string, message: string): BatchLinkResult => ({
  email,
  error: { message, code: 'WALLET_AUTH_FAILED' },
});
const WRONG = 'The wallet service did not accept this e-mail and password';

describe('what a batch add says', () => {
  it('with some added and some refused: how many were added, and which were not and why — no failure', () => {
    const outcome = batchOutcome([
      added('good@wallet.test'),
      refused('wrong@wallet.test', WRONG),
      refused('unknown@wallet.test', WRONG),
    ]);
    expect(outcome).toEqual({
      kind: 'some',
      title: '1 of 3 accounts added',
      added: ['good@wallet.test'],
      failed: [
        { email: 'wrong@wallet.test', reason: WRONG },
        { email: 'unknown@wallet.test', reason: WRONG },
      ],
    });
    expect(outcome.title).not.toContain('Failed');
  });

  it("with none added: 'Failed to add accounts', each with its reason", () => {
    const outcome = batchOutcome([refused('a@wallet.test', WRONG), { email: 'b@wallet.test' }]);
    expect(outcome).toMatchObject({
      kind: 'none',
      title: 'Failed to add accounts',
      added: [],
      failed: [
        { email: 'a@wallet.test', reason: WRONG },
        // An entry without a reason gets the fallback (docs/reference.md "Fallback texts").
        { email: 'b@wallet.test', reason: 'Failed to add account' },
      ],
    });
  });

  it('with all added: how many', () => {
    expect(batchOutcome([added('a@wallet.test'), added('b@wallet.test')])).toMatchObject({
      kind: 'all',
      title: '2 accounts added',
      failed: [],
    });
    expect(batchOutcome([added('a@wallet.test')]).title).toBe('1 account added');
    expect(batchOutcome([added('a@wallet.test'), refused('b@wallet.test', WRONG)]).title).toBe('1 of 2 accounts added');
  });
});
