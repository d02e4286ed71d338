import { describe, expect, it } from 'vitest';
import type { AdminAccount } from '@seatlink/contracts';
import { anAccount } from '../../testing/tickets';
import { adminAccountTotals, searchAdminAccounts } from './admin-accounts';

function adminAccount(overrides: Partial<AdminAccount>): AdminAccount {
  return { ...anAccount(), user: { email: 'user@seatlink.test' }, tickets: [], ...overrides };
}

describe('admin accounts', () => {
  const a = adminAccount({ id: 'a', user_id: 'u1', name: 'Alex Carter', email: 'alex@wallet.test' });
  const b = adminAccount({
    id: 'b',
    user_id: 'u2',
    name: 'Sam Okafor',
    email: 'sam@wallet.test',
    user: { email: 'other@seatlink.test' },
    in_error_state: true,
    tickets: [{ id: 't', event_name: 'X', section: null, row: null, seat: null, is_distributed: false }],
  });

  it("searches the account's name and e-mail and its owner's e-mail", () => {
    expect(searchAdminAccounts([a, b], 'OTHER@').map((x) => x.id)).toEqual(['b']);
    expect(searchAdminAccounts([a, b], 'alex').map((x) => x.id)).toEqual(['a']);
    expect(searchAdminAccounts([a, b], ' ').map((x) => x.id)).toEqual(['a', 'b']);
  });

  it('counts accounts, owners, tickets and accounts in error', () => {
    expect(adminAccountTotals([a, b])).toEqual({ accounts: 2, owners: 2, tickets: 1, inError: 1 });
  });
});
