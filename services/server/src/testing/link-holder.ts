import { randomUUID } from 'node:crypto';
import { type Account, type DistributeResponse, SOCKET_PATH, type Ticket } from '@seatlink/contracts';
import { io, type Socket } from 'socket.io-client';
import { ApiClient, type TestStack } from './test-app.js';
import { createVerifiedUser } from './users.js';
import { linkWalletWith, passes, type SimControl } from './wallet-fixture.js';

/** A person's phone, as a recipient presses "Add to wallet" with (a known bot or no user agent is refused). */
export const RECIPIENT_BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

export interface LinkHolder {
  client: ApiClient;
  id: string;
  /** The holder's own e-mail address (where their notification e-mails go). */
  email: string;
  account: Account;
  /** The address of their wallet at the simulated provider. */
  walletEmail: string;
  tickets: Ticket[];
}

/** A new signed-in user with `credits` and a wallet of `tickets` passes, synced. */
export async function newLinkHolder(
  stack: TestStack,
  admin: ApiClient,
  control: SimControl,
  { tickets = 3, credits = 100 }: { tickets?: number; credits?: number } = {},
): Promise<LinkHolder> {
  const created = await createVerifiedUser(stack.app);
  const client = new ApiClient(stack.baseUrl);
  const login = await client.login(created.email, created.password);
  if (login.status !== 200) throw new Error(`sign-in of ${created.email}: ${login.status}`);
  await admin.request('PUT', `/v1/admin/users/${created.id}/credits`, { credits, reason: 'Test' });
  const walletEmail = `h-${randomUUID().slice(0, 8)}@wallet.test`;
  const synced = await linkWalletWith(client, control, walletEmail, passes(walletEmail.split('@')[0]!, tickets));
  return { client, id: created.id, email: created.email, walletEmail, ...synced };
}

/** Distributes one ticket (its options as the distribute body takes them); answers its link's code and id. */
export async function makeLink(
  client: ApiClient,
  ticket: Ticket,
  options: Record<string, unknown> = {},
): Promise<{ code: string; distributionId: string }> {
  const res = await client.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], ...options });
  if (res.status !== 200) throw new Error(`distribute: ${res.status} ${JSON.stringify(res.body)}`);
  const made = (res.body as unknown as DistributeResponse).distributions[0]!;
  return { code: made.link.split('/l/')[1]!, distributionId: made.distribution_id };
}

/** A recipient's press of "Add to wallet". */
export function claimLink(baseUrl: string, code: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/links/${code}/claim`, { method: 'POST', headers: { 'user-agent': RECIPIENT_BROWSER } });
}

/** A socket of the dashboard, signed in with `cookie`, connected (its caller disconnects it). */
export async function signedInSocket(baseUrl: string, cookie: string): Promise<Socket> {
  const socket: Socket = io(baseUrl, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    extraHeaders: { cookie },
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
