import type { Account, Ticket } from '@seatlink/contracts';
import { createWalletSim, type WalletSimApp } from '@seatlink/wallet-sim';
import type { ApiClient } from './test-app.js';

export const WALLET_PASSWORD = 'Wallet123!';

/** The control key of each simulator started here, by its address. */
const controlKeys = new Map<string, string>();

/** The simulated wallet provider on a port of its own (its rate limit off unless given; a random control key). */
export async function startSim(
  options: Parameters<typeof createWalletSim>[0] = {},
): Promise<{ sim: WalletSimApp; url: string }> {
  const sim = createWalletSim({ env: {}, rateLimit: { requestsPerSecond: 0 }, ...options });
  let url = '';
  sim.addHook('onClose', async () => {
    controlKeys.delete(url);
  });
  await sim.listen({ port: 0, host: '127.0.0.1' });
  const address = sim.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  controlKeys.set(url, sim.walletSim.controlKey);
  return { sim, url };
}

/** A caller of the simulator's control API (with its key, for a simulator of `startSim`, or the key given). */
export function simControl(url: string, key = controlKeys.get(url)) {
  if (!key) throw new Error(`No control key known for the simulator at ${url}`);
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/control${path}`, {
      method,
      headers: {
        'x-control-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 400) throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
  };
}
export type SimControl = ReturnType<typeof simControl>;

/** `n` passes visible at once, tagged so that two tags never share a barcode. */
export const passes = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i}`,
    barcode: `BC-${tag}-${i}`,
    event: { title: `Match ${i}`, subtitle: 'Premier Division' },
    venue: { name: 'Quayside Stadium' },
    seat: { section: '1', row: 'A', seat: String(i) },
    visible_after_ms: 0,
  }));

/**
 * A wallet with these passes, linked by `client`; resolves with the account's tickets once they have synced in.
 * (`passList` may share passes with another wallet: the same barcode makes a duplicate.)
 */
export async function linkWalletWith(
  client: ApiClient,
  control: SimControl,
  email: string,
  passList: ReadonlyArray<Record<string, unknown>>,
  timeoutMs = 20_000,
): Promise<{ account: Account; tickets: Ticket[] }> {
  await control('POST', '/wallets', { email, password: WALLET_PASSWORD, first_name: 'Wally', last_name: 'Tester' });
  for (const pass of passList) await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, pass);
  const linked = await client.request('POST', '/v1/accounts', { email, password: WALLET_PASSWORD });
  if (linked.status >= 300) throw new Error(`link ${email}: ${linked.status} ${JSON.stringify(linked.body)}`);
  const account = linked.body as unknown as Account;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tickets = ((await client.request('GET', '/v1/tickets')).body.tickets as Ticket[]).filter(
      (t) => t.account_id === account.id,
    );
    if (tickets.length >= passList.length) return { account, tickets };
    if (Date.now() > deadline) throw new Error(`${email}: ${tickets.length} of ${passList.length} tickets synced`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
