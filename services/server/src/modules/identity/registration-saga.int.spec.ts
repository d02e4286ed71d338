import { randomUUID } from 'node:crypto';
import type { InviteCode } from '@seatlink/contracts';
import { CommandBus, type ICommandHandler } from '@nestjs/cqrs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import {
  type AppendResult,
  EVENT_STORE,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type PositionedEvent,
  type StreamAppend,
  type StreamAppendResult,
} from '../../infra/event-store/event-store.port.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { InviteCommandMessage } from '../invites/invite.command.js';
import { InviteCommandHandler } from '../invites/invite.handler.js';
import { PasswordHasher } from './password-hasher.js';
import { RegisterUserCommand } from './register-user.command.js';
import { RegisterUserFlow } from './register-user.flow.js';
import { EmailClaimCommandMessage, UserCommandMessage } from './user.command.js';
import { EmailClaimCommandHandler, UserCommandHandler } from './user.handler.js';

const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);

/** The real store, with appends to matching streams failing while `failing` says so (the database went away). */
class FailingStore implements EventStore {
  failing: (streamId: string, events: readonly NewEvent[]) => boolean = () => false;
  constructor(private readonly inner: EventStore) {}
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult> {
    if (this.failing(streamId, events)) return Promise.reject(new Error(`injected failure appending to ${streamId}`));
    return this.inner.appendToStream(streamId, events, options);
  }
  appendToStreams(appends: readonly StreamAppend[]): Promise<StreamAppendResult[]> {
    const failing = appends.find((a) => this.failing(a.streamId, a.events));
    if (failing) return Promise.reject(new Error(`injected failure appending to ${failing.streamId}`));
    return this.inner.appendToStreams(appends);
  }
  readStream = (id: string) => this.inner.readStream(id);
  readStreams = (ids: readonly string[]) => this.inner.readStreams(ids);
  recordAtPositions = (events: readonly PositionedEvent[]) => this.inner.recordAtPositions(events);
  get logInDatabase() {
    return this.inner.logInDatabase;
  }
  appendedInDatabase = (types: readonly string[]) => this.inner.appendedInDatabase(types);
  readAll = (after: string | null, limit: number) => this.inner.readAll(after, limit);
  readFeedFor = (after: string | null, limit: number, types: readonly string[]) =>
    this.inner.readFeedFor(after, limit, types);
  headPosition = () => this.inner.headPosition();
  onAppended = (f: (types: ReadonlySet<string> | null) => void) => this.inner.onAppended(f);
  comparePositions = (a: string, b: string) => this.inner.comparePositions(a, b);
  withinTransaction = () => this;
  close = () => Promise.resolve();
}

/** The real handlers of the streams registration touches, on `store`: the bus of a flow that meets its failures. */
function busOn(store: EventStore): CommandBus {
  const handlers = new Map<unknown, ICommandHandler>([
    [InviteCommandMessage, new InviteCommandHandler(store)],
    [EmailClaimCommandMessage, new EmailClaimCommandHandler(store)],
    [UserCommandMessage, new UserCommandHandler(store)],
  ]);
  return { execute: (message: object) => handlers.get(message.constructor)!.execute(message) } as unknown as CommandBus;
}

/**
 * Registration takes an invite use, claims the e-mail address, then registers: three streams. A failure after each
 * step must give back what was taken, so a retry (or another visitor) can use them.
 */
describe('registration as a saga: what a failed step took is given back', () => {
  let stack: TestStack;
  let admin: ApiClient;
  let store: FailingStore;
  let flow: RegisterUserFlow;
  let database: Database;

  beforeAll(async () => {
    // A registration found unfinished is looked at a second after its first claim.
    stack = await startTestStack({ env: { FLOW_CHECK_AFTER_MS: '1000' } });
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    database = stack.app.get<Database>(DATABASE);
    store = new FailingStore(stack.app.get<EventStore>(EVENT_STORE));
    flow = new RegisterUserFlow(busOn(store), stack.app.get(PasswordHasher), stack.app.get<JobQueue>(JOB_QUEUE), store);
  });
  afterAll(async () => stack?.close());

  async function newInvite(): Promise<InviteCode> {
    const res = await admin.request('POST', '/v1/admin/invites', { max_uses: 1, expires_at: tomorrow() });
    return res.body.invite_code as InviteCode;
  }
  const used = async (code: string) =>
    (
      await database.query<{ used: number }>(
        `select count(*) filter (where type = 'InviteCodeUsed')::int - count(*) filter (where type = 'InviteCodeUseReleased')::int as used
         from events where stream_id = $1`,
        [`invite-${code}`],
      )
    )[0]!.used;
  const register = (email: string, code: string) =>
    flow.execute(
      new RegisterUserCommand({
        email,
        password: 'Str0ng!pass',
        firstName: 'Sa',
        lastName: 'Ga',
        isAdmin: false,
        emailVerified: false,
        inviteCode: code,
      }),
    );
  const registerByApi = (email: string, code: string, lastName = 'Ga') =>
    new ApiClient(stack.baseUrl).request('POST', '/v1/auth/register', {
      email,
      first_name: 'Sa',
      last_name: lastName,
      password: 'Str0ng!pass',
      invite_code: code,
      token: null,
    });

  it.each([
    ['claiming the e-mail address', (stream: string) => stream.startsWith('user-email-')],
    ['registering the user', (stream: string) => /^user-[0-9a-f]{8}-/.test(stream)],
  ])('gives back the invite use (and the address) when %s fails', async (_step, failsOn) => {
    const invite = await newInvite();
    const email = `saga-${randomUUID().slice(0, 8)}@example.com`;
    store.failing = (stream) => failsOn(stream);
    await expect(register(email, invite.code)).rejects.toThrow(/injected failure/);
    store.failing = () => false;
    expect(await used(invite.code)).toBe(0);
    // Nothing stays claimed: the same address and the one-use code register now.
    const res = await registerByApi(email, invite.code);
    expect(res.status).toBe(201);
    expect(await used(invite.code)).toBe(1);
  });

  it('gives them back through a job when giving back fails at once too', async () => {
    const invite = await newInvite();
    const email = `later-${randomUUID().slice(0, 8)}@example.com`;
    // Registering fails, and so does every give-back on this handler's store; the job uses the healthy one.
    store.failing = (stream, events) =>
      /^user-[0-9a-f]{8}-/.test(stream) || events.some((e) => /Released/.test(e.type));
    await expect(register(email, invite.code)).rejects.toThrow(/injected failure/);
    store.failing = () => false;
    await expect.poll(() => used(invite.code), { timeout: 15_000 }).toBe(0);
    await expect.poll(async () => (await registerByApi(email, invite.code)).status, { timeout: 15_000 }).toBe(201);
  });

  it('takes the claims again on a retry of a failed registration (same command id): one use, one account', async () => {
    const invite = await newInvite();
    const email = `again-${randomUUID().slice(0, 8)}@example.com`;
    const commandId = randomUUID();
    const attempt = () =>
      flow.execute(
        new RegisterUserCommand({
          email,
          password: 'Str0ng!pass',
          firstName: 'Re',
          lastName: 'Try',
          isAdmin: false,
          emailVerified: false,
          inviteCode: invite.code,
          commandId,
        }),
      );
    store.failing = (stream) => /^user-[0-9a-f]{8}-/.test(stream);
    await expect(attempt()).rejects.toThrow(/injected failure/);
    store.failing = () => false;
    expect(await used(invite.code)).toBe(0);
    await attempt();
    expect(await used(invite.code)).toBe(1);
    // The one-use code is spent and the address is taken: nobody else registers with either (a taken address is
    // answered as a new one, and spends a use of the other code as a new one would, but registers nothing).
    expect((await registerByApi(`other-${email}`, invite.code)).status).toBe(400);
    const other = await newInvite();
    expect((await registerByApi(email, other.code)).status).toBe(201);
    expect(await used(other.code)).toBe(1);
    // The users table is a read model: it is read once the projection has taken every event written so far.
    await subscriptionsCaughtUp(stack.app);
    const users = await database.query<{ n: number }>('select count(*)::int as n from users where email = $1', [email]);
    expect(users[0]!.n).toBe(1);
  });

  it('does not let a retried key re-use a use it gave back (Idempotency-Key: a failed step, then the retry)', async () => {
    const invite = await newInvite();
    const key = `saga-${randomUUID()}`;
    const email = `keyed-${randomUUID().slice(0, 8)}@example.com`;
    const attempt = () =>
      flow.execute(
        new RegisterUserCommand({
          email,
          password: 'Str0ng!pass',
          firstName: 'Sa',
          lastName: 'Ga',
          isAdmin: false,
          emailVerified: false,
          inviteCode: invite.code,
          commandId: key,
        }),
      );
    store.failing = (stream) => stream.startsWith('user-email-');
    await expect(attempt()).rejects.toThrow(/injected failure/);
    store.failing = () => false;
    expect(await used(invite.code)).toBe(0);
    await attempt();
    expect(await used(invite.code)).toBe(1);
    expect((await registerByApi(`third-${email}`, invite.code)).status).toBe(400);
  });

  it('spends the invite use when the address is taken, as for a new one, and a retried key answers the same', async () => {
    const invite = await newInvite();
    const headers = { 'idempotency-key': `taken-${randomUUID()}` };
    const register = () =>
      new ApiClient(stack.baseUrl).request(
        'POST',
        '/v1/auth/register',
        {
          email: 'user@seatlink.test',
          first_name: 'Sa',
          last_name: 'Ga',
          password: 'Str0ng!pass',
          invite_code: invite.code,
          token: null,
        },
        { headers },
      );
    const first = await register();
    const again = await register();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // One use spent (not two: the retry answered what the first did), as a new address's registration spends it.
    expect(await used(invite.code)).toBe(1);
    expect((await registerByApi(`new-${randomUUID().slice(0, 8)}@example.com`, invite.code)).status).toBe(400);
  });

  it('gives back the claims of a registration that died half-way, and only those, once it is looked at', async () => {
    const bus = stack.app.get(CommandBus);
    // Looked at the same way, before the one that died: a registration that finished, and one with a taken address.
    const finished = await newInvite();
    const finishedEmail = `done-${randomUUID().slice(0, 8)}@example.com`;
    expect((await registerByApi(finishedEmail, finished.code)).status).toBe(201);
    const metTaken = await newInvite();
    expect((await registerByApi('user@seatlink.test', metTaken.code)).status).toBe(201);
    // What a registration whose process died after its claims leaves: a use and the address, no user.
    const invite = await newInvite();
    const email = `died-${randomUUID().slice(0, 8)}@example.com`;
    const userId = randomUUID();
    await bus.execute(
      new InviteCommandMessage({
        type: 'UseInvite',
        data: { code: invite.code, userId, email, now: new Date().toISOString() },
      }),
    );
    await bus.execute(new EmailClaimCommandMessage({ type: 'ClaimEmail', data: { email, userId } }));
    expect(await used(invite.code)).toBe(1);
    await expect.poll(() => used(invite.code), { timeout: 15_000 }).toBe(0);
    expect((await registerByApi(email, invite.code)).status).toBe(201);
    // The finished registration keeps its use, and so does the one that met a taken address (as a new one would).
    expect(await used(finished.code)).toBe(1);
    expect(await used(metTaken.code)).toBe(1);
    const users = await database.query<{ n: number }>('select count(*)::int as n from users where email = $1', [
      finishedEmail,
    ]);
    expect(users[0]!.n).toBe(1);
  });

  it('answers a name the database cannot keep (NUL) with 400, and burns neither the invite nor the address', async () => {
    const invite = await newInvite();
    const email = `nul-${randomUUID().slice(0, 8)}@example.com`;
    const res = await registerByApi(email, invite.code, 'x\u0000y');
    expect(res.status).toBe(400);
    expect(await used(invite.code)).toBe(0);
    expect((await registerByApi(email, invite.code)).status).toBe(201);
  });
});
