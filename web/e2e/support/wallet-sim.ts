import { expect, request, type APIRequestContext } from '@playwright/test';
import type { Account, AccountsResponse } from '@seatlink/contracts';

/**
 * The wallet simulator the stack under test mounts at /wallet-sim (services/wallet-sim/README.md): its control API
 * makes wallets and passes, and changes passwords, as a wallet owner would at the wallet service.
 */

export const WALLET_PASSWORD = 'Wallet123!';

/** The header the simulator's control API asks for (its key is set by the global setup). */
export function simControlHeaders(): Record<string, string> {
  const key = process.env.E2E_SIM_CONTROL_KEY;
  if (!key) throw new Error('E2E_SIM_CONTROL_KEY is not set (see support/global-setup.ts)');
  return { 'x-control-key': key };
}

export interface TestWallet {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

async function control<T>(method: 'POST' | 'PUT' | 'GET', path: string, data?: unknown): Promise<T> {
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const res = await api.fetch(`/wallet-sim/control${path}`, { method, data, headers: simControlHeaders() });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  } finally {
    await api.dispose();
  }
}

/** A new wallet of the simulator with a unique, lower-case address (and no passes). */
export async function createWallet(name: string, lastName = 'Tester'): Promise<TestWallet> {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const wallet: TestWallet = {
    email: `${name.toLowerCase()}-${unique}@wallet.test`,
    password: WALLET_PASSWORD,
    firstName: name,
    lastName,
  };
  await control('POST', '/wallets', {
    email: wallet.email,
    password: wallet.password,
    first_name: wallet.firstName,
    last_name: wallet.lastName,
  });
  return wallet;
}

/** Adds a pass to a wallet, visible at once; answers its id. */
export async function addPass(
  walletEmail: string,
  pass: { title: string; subtitle?: string; venue?: string; seat?: { section: string; row: string; seat: string } },
): Promise<string> {
  const created = await control<{ id: string }>('POST', `/wallets/${encodeURIComponent(walletEmail)}/passes`, {
    event: { title: pass.title, subtitle: pass.subtitle ?? 'Season Ticket 2026/27' },
    venue: { name: pass.venue ?? 'Test Arena' },
    ...(pass.seat ? { seat: pass.seat } : {}),
    visible_after_ms: 0,
  });
  return created.id;
}

/**
 * Adds a pass the simulator answers exactly as given (any JSON), visible at once: a provider that sends what it
 * should not.
 */
export async function addRawPass(walletEmail: string, id: string, pass: unknown): Promise<void> {
  await control('POST', `/wallets/${encodeURIComponent(walletEmail)}/raw-passes`, { id, pass });
}

/** Sets the share of the simulator's provider calls that fail with 503 (0 to 1). */
export async function setWalletErrorRate(errorRate: number): Promise<void> {
  await control('PUT', '/config', { errorRate });
}

/** Changes a wallet's password at the wallet service: every sign-in the product holds for it is revoked. */
export async function changeWalletPassword(walletEmail: string, password: string): Promise<void> {
  await control('POST', `/wallets/${encodeURIComponent(walletEmail)}/password`, { password });
}

/** Sets the simulator's latency (every provider call waits this long), e.g. to watch a sync's progress. */
export async function setWalletLatency(ms: number): Promise<void> {
  await control('PUT', '/config', { latencyMs: { min: ms, max: ms } });
}

/** An API session of a product user, for setting up what a test is not about. */
export async function apiSession(who: { email: string; password: string }): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  const login = await api.post('/v1/auth', { data: { email: who.email, password: who.password, token: null } });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

/** Links a wallet to the API session's user (POST /v1/accounts); answers the account. */
export async function linkWallet(
  api: APIRequestContext,
  wallet: { email: string; password: string },
): Promise<Account> {
  const res = await api.post('/v1/accounts', { data: { email: wallet.email, password: wallet.password } });
  expect([201, 202], await res.text()).toContain(res.status());
  return (await res.json()) as Account;
}

/** Signs a linked account in again (POST /v1/accounts/{id}/reauth): a sync runs at once. */
export async function reauthenticate(
  api: APIRequestContext,
  accountId: string,
  wallet: { email: string; password: string },
): Promise<void> {
  const res = await api.post(`/v1/accounts/${accountId}/reauth`, {
    data: { email: wallet.email, password: wallet.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The API session user's accounts. */
export async function listAccounts(api: APIRequestContext): Promise<Account[]> {
  const res = await api.get('/v1/accounts');
  expect(res.status()).toBe(200);
  return ((await res.json()) as AccountsResponse).accounts;
}
