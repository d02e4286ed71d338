import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountsResponse } from '@seatlink/contracts';
import { ACCOUNT_LIST_KEY, accountListQuery } from '../../lib/account-list';
import { createQueryClient } from '../../lib/create-query-client';
import { querySlice } from '../../lib/query-slice';
import { stubFetch } from '../../testing/fetch-stub';
import { anAccount } from '../../testing/tickets';
import { linkAccounts, reauthenticate, removeAccount } from './account-actions';
import { createAccountSyncsStore, useAccountSyncsStore } from './account-syncs.store';
import { ACCOUNT_MESSAGES } from './accounts.queries';

afterEach(() => {
  vi.unstubAllGlobals();
});

type Client = ReturnType<typeof createQueryClient>;
const listed = (client: Client) => client.getQueryData<AccountsResponse>(ACCOUNT_LIST_KEY)?.accounts.map((a) => a.id);
const slice = (client: Client) =>
  querySlice(
    client.getQueryCache().find<AccountsResponse>({ queryKey: ACCOUNT_LIST_KEY })!.state,
    'Failed to fetch accounts',
  );

/** A client holding the account list `accounts` (read through a stubbed GET). */
async function holding(accounts: ReturnType<typeof anAccount>[]) {
  stubFetch({ status: 200, body: { accounts } });
  const client = createQueryClient();
  await client.fetchQuery(accountListQuery);
  vi.unstubAllGlobals();
  return client;
}

describe('the account list', () => {
  it('is read with GET /v1/accounts', async () => {
    const accounts = [anAccount({ id: 'a' })];
    const calls = stubFetch({ status: 200, body: { accounts } });
    const client = createQueryClient();
    await client.fetchQuery(accountListQuery);
    expect(calls[0]).toMatchObject({ url: '/v1/accounts', method: 'GET', credentials: 'include' });
    expect(slice(client)).toMatchObject({ data: { accounts }, loaded: true, loading: false, error: null });
  });

  it("falls back to 'Failed to fetch accounts', and a failed refresh keeps the list", async () => {
    stubFetch({ status: 500 }, { status: 200, body: { accounts: [anAccount({ id: 'a' })] } }, { status: 503 });
    const client = createQueryClient();
    await expect(client.fetchQuery(accountListQuery)).rejects.toThrow();
    expect(slice(client)).toMatchObject({ error: ACCOUNT_MESSAGES.fetchFailed, loaded: false });
    await client.fetchQuery(accountListQuery);
    await expect(client.fetchQuery(accountListQuery)).rejects.toThrow();
    expect(slice(client)).toMatchObject({ error: null, loaded: true });
    expect(listed(client)).toEqual(['a']);
  });
});

describe('account actions', () => {
  it('links one account with POST /v1/accounts; it joins the list at once', async () => {
    const client = await holding([]);
    const account = { ...anAccount({ id: 'new', email: 'jordan@wallet.test' }), pending: true };
    const calls = stubFetch({ status: 202, body: account });
    const outcome = await linkAccounts(client, [{ email: 'jordan@wallet.test', password: 'Wallet123!' }]);
    expect(calls[0]).toMatchObject({
      url: '/v1/accounts',
      method: 'POST',
      body: { email: 'jordan@wallet.test', password: 'Wallet123!' },
    });
    expect(outcome).toMatchObject({ kind: 'single', ok: true, account: { id: 'new' } });
    expect(outcome).not.toHaveProperty('account.pending');
    expect(listed(client)).toEqual(['new']);
  });

  it("reports the wallet's refusal, or 'Failed to add account'", async () => {
    const client = await holding([]);
    stubFetch(
      {
        status: 400,
        body: { message: 'The wallet service did not accept this e-mail and password', code: 'WALLET_AUTH_FAILED' },
      },
      { status: 500 },
    );
    const entry = [{ email: 'jordan@wallet.test', password: 'nope' }];
    await expect(linkAccounts(client, entry)).resolves.toEqual({
      kind: 'single',
      ok: false,
      message: 'The wallet service did not accept this e-mail and password',
    });
    await expect(linkAccounts(client, entry)).resolves.toEqual({
      kind: 'single',
      ok: false,
      message: 'Failed to add account',
    });
    expect(listed(client)).toEqual([]);
  });

  it('links several with one batch call, each linked or refused on its own', async () => {
    const client = await holding([]);
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
    const entries = [
      { email: 'one@wallet.test', password: 'a' },
      { email: 'two@wallet.test', password: 'b' },
    ];
    const outcome = await linkAccounts(client, entries);
    expect(calls[0]).toMatchObject({ url: '/v1/accounts/batch', method: 'POST', body: { accounts: entries } });
    expect(outcome).toMatchObject({ kind: 'batch', ok: false, linked: 1, failed: 1 });
    expect(listed(client)).toEqual(['b1']);
    await expect(linkAccounts(client, entries)).resolves.toEqual({
      kind: 'batch',
      ok: false,
      message: 'Failed to add accounts',
    });
  });

  it('re-authenticates and deletes', async () => {
    const before = anAccount({ id: 'x', in_error_state: true });
    const after = { ...before, in_error_state: false };
    const client = await holding([before]);
    useAccountSyncsStore.getState().apply({ account_id: 'x', state: 'running', fetched: 2 });
    const calls = stubFetch(
      { status: 200, body: after },
      { status: 200, body: { message: 'Account successfully deleted' } },
      { status: 404, body: { message: 'Account not found' } },
      { status: 500 },
    );

    await expect(reauthenticate(client, 'x', { email: before.email, password: 'p' })).resolves.toEqual({
      ok: true,
      account: after,
    });
    expect(client.getQueryData<AccountsResponse>(ACCOUNT_LIST_KEY)?.accounts[0]?.in_error_state).toBe(false);
    await expect(removeAccount(client, 'x')).resolves.toEqual({ ok: true, message: 'Account successfully deleted' });
    expect(listed(client)).toEqual([]);
    expect(useAccountSyncsStore.getState().syncs).toEqual({});
    await expect(removeAccount(client, 'x')).resolves.toEqual({ ok: false, message: 'Account not found' });
    await expect(removeAccount(client, 'x')).resolves.toEqual({ ok: false, message: 'Failed to delete account' });

    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /v1/accounts/x/reauth',
      'DELETE /v1/accounts/x',
      'DELETE /v1/accounts/x',
      'DELETE /v1/accounts/x',
    ]);
    expect(calls[0]?.body).toEqual({ email: before.email, password: 'p' });
  });
});

describe('sync progress', () => {
  it('follows a sync from the account.sync pushes, and forgets one the list no longer shows running', () => {
    const store = createAccountSyncsStore();
    store.getState().apply({ account_id: 'x', state: 'running', fetched: 0 });
    store.getState().apply({ account_id: 'x', state: 'running', fetched: 40 });
    store.getState().apply({ account_id: 'y', state: 'running', fetched: 3 });
    expect(store.getState().syncs).toEqual({
      x: { state: 'running', fetched: 40 },
      y: { state: 'running', fetched: 3 },
    });
    store.getState().apply({ account_id: 'x', state: 'done', fetched: 52 });
    expect(Object.keys(store.getState().syncs)).toEqual(['y']);
    store.getState().keepRunning([anAccount({ id: 'y', syncing: false })]);
    expect(store.getState().syncs).toEqual({});
  });
});
