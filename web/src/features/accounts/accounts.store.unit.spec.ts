import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../testing/fetch-stub';
import { anAccount } from '../../testing/tickets';
import { createAccountsStore } from './accounts.store';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('accounts store', () => {
  it('loads the list', async () => {
    const accounts = [anAccount({ id: 'a' })];
    const calls = stubFetch({ status: 200, body: { accounts } });
    const store = createAccountsStore();
    await store.getState().fetchAccounts();
    expect(calls[0]).toMatchObject({ url: '/v1/accounts', method: 'GET', credentials: 'include' });
    expect(store.getState()).toMatchObject({ accounts, loaded: true, loading: false, error: null });
  });

  it("falls back to 'Failed to fetch accounts', and a failed live refresh keeps the list", async () => {
    stubFetch({ status: 500 }, { status: 200, body: { accounts: [anAccount({ id: 'a' })] } }, { status: 503 });
    const store = createAccountsStore();
    await store.getState().fetchAccounts();
    expect(store.getState()).toMatchObject({ error: 'Failed to fetch accounts', loaded: false });
    await store.getState().fetchAccounts();
    await store.getState().fetchAccounts({ silent: true });
    expect(store.getState()).toMatchObject({ error: null, loaded: true });
    expect(store.getState().accounts).toHaveLength(1);
  });

  it('links one account with POST /v1/accounts', async () => {
    const account = { ...anAccount({ id: 'new', email: 'jordan@wallet.test' }), pending: true };
    const calls = stubFetch({ status: 202, body: account });
    const store = createAccountsStore();
    const outcome = await store.getState().link([{ email: 'jordan@wallet.test', password: 'Wallet123!' }]);
    expect(calls[0]).toMatchObject({
      url: '/v1/accounts',
      method: 'POST',
      body: { email: 'jordan@wallet.test', password: 'Wallet123!' },
    });
    expect(outcome).toMatchObject({ kind: 'single', ok: true, account: { id: 'new' } });
    expect(store.getState().accounts.map((a) => a.id)).toEqual(['new']);
    expect(store.getState().accounts[0]).not.toHaveProperty('pending');
  });

  it("reports the wallet's refusal, or 'Failed to add account'", async () => {
    stubFetch(
      {
        status: 400,
        body: { message: 'The wallet service did not accept this e-mail and password', code: 'WALLET_AUTH_FAILED' },
      },
      { status: 500 },
    );
    const store = createAccountsStore();
    const entry = [{ email: 'jordan@wallet.test', password: 'nope' }];
    await expect(store.getState().link(entry)).resolves.toEqual({
      kind: 'single',
      ok: false,
      message: 'The wallet service did not accept this e-mail and password',
    });
    await expect(store.getState().link(entry)).resolves.toEqual({
      kind: 'single',
      ok: false,
      message: 'Failed to add account',
    });
  });

  it('links several with one batch call, each linked or refused on its own', async () => {
    const linked = anAccount({ id: 'b1', email: 'one@wallet.test' });
    const calls = stubFetch(
      {
        status: 200,
        body: {
          results: [
            { email: 'one@wallet.test', account: linked },
            {
              email: 'two@wallet.test',
              error: { message: 'This account is already linked', code: 'ACCOUNT_ALREADY_LINKED' },
            },
          ],
          linked: 1,
          failed: 1,
        },
      },
      { status: 500 },
    );
    const store = createAccountsStore();
    const entries = [
      { email: 'one@wallet.test', password: 'a' },
      { email: 'two@wallet.test', password: 'b' },
    ];
    const outcome = await store.getState().link(entries);
    expect(calls[0]).toMatchObject({ url: '/v1/accounts/batch', method: 'POST', body: { accounts: entries } });
    expect(outcome).toMatchObject({ kind: 'batch', ok: false, linked: 1, failed: 1 });
    expect(store.getState().accounts.map((a) => a.id)).toEqual(['b1']);
    await expect(store.getState().link(entries)).resolves.toEqual({
      kind: 'batch',
      ok: false,
      message: 'Failed to add accounts',
    });
  });

  it('re-authenticates and deletes', async () => {
    const before = anAccount({ id: 'x', in_error_state: true });
    const after = { ...before, in_error_state: false };
    const calls = stubFetch(
      { status: 200, body: after },
      { status: 200, body: { message: 'Account successfully deleted' } },
      { status: 404, body: { message: 'Account not found' } },
      { status: 500 },
    );
    const store = createAccountsStore();
    store.setState({ accounts: [before], loaded: true, syncs: { x: { state: 'running', fetched: 2 } } });

    await expect(store.getState().reauthenticate('x', { email: before.email, password: 'p' })).resolves.toEqual({
      ok: true,
      account: after,
    });
    expect(store.getState().accounts[0]?.in_error_state).toBe(false);
    await expect(store.getState().remove('x')).resolves.toEqual({ ok: true, message: 'Account successfully deleted' });
    expect(store.getState().accounts).toEqual([]);
    expect(store.getState().syncs).toEqual({});
    await expect(store.getState().remove('x')).resolves.toEqual({ ok: false, message: 'Account not found' });
    await expect(store.getState().remove('x')).resolves.toEqual({ ok: false, message: 'Failed to delete account' });

    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /v1/accounts/x/reauth',
      'DELETE /v1/accounts/x',
      'DELETE /v1/accounts/x',
      'DELETE /v1/accounts/x',
    ]);
    expect(calls[0]?.body).toEqual({ email: before.email, password: 'p' });
  });

  it('follows a sync from the account.sync pushes', () => {
    const store = createAccountsStore();
    store.getState().applySync({ account_id: 'x', state: 'running', fetched: 0 });
    store.getState().applySync({ account_id: 'x', state: 'running', fetched: 40 });
    expect(store.getState().syncs).toEqual({ x: { state: 'running', fetched: 40 } });
    store.getState().applySync({ account_id: 'x', state: 'done', fetched: 52 });
    expect(store.getState().syncs).toEqual({});
  });
});
