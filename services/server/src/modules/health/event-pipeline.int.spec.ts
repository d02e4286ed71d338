import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import type { HealthResponse, InviteCode, ParkedEventView, User } from '@seatlink/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../bootstrap.js';
import type { AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { seed } from '../../seed.js';
import { ApiClient, startTestWorker, subscriptionsCaughtUp, testConfig } from '../../testing/test-app.js';
import { TestSmtpServer } from '../../testing/test-smtp.js';
import { InviteCommandMessage } from '../invites/invite.command.js';

const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);

/**
 * The product in its production shape (an API process and a worker process on one database), with the worker stopped
 * and started again: answers must stay true while the read models lag, and nothing may be lost or done twice.
 */
describe('the event pipeline, with and without a worker', () => {
  let config: AppConfig;
  let drop: () => Promise<void>;
  let api: NestFastifyApplication;
  let worker: INestApplicationContext | null = null;
  let baseUrl: string;
  let smtp: TestSmtpServer;
  let admin: ApiClient;
  let database: Database;

  const startWorker = async () => {
    worker = await startTestWorker(config);
  };
  const stopWorker = async () => {
    await worker?.close();
    worker = null;
  };
  const health = async () => {
    const res = await fetch(`${baseUrl}/health`);
    return { status: res.status, body: (await res.json()) as { status: string } };
  };
  const details = async () => (await admin.request('GET', '/v1/admin/health')).body as unknown as HealthResponse;

  beforeAll(async () => {
    smtp = new TestSmtpServer();
    const smtpUrl = await smtp.start();
    ({ config, drop } = await testConfig({
      env: {
        SMTP_URL: smtpUrl,
        READ_MODEL_WAIT_MS: '400',
        SUBSCRIPTION_RETRY_ATTEMPTS: '2',
        SUBSCRIPTION_RETRY_MS: '10',
        SUBSCRIPTION_HEARTBEAT_MS: '200',
        HEALTH_HOST_SILENT_SECONDS: '1',
      },
    }));
    await startWorker();
    await seed(worker!);
    api = await createHttpApp(config, 'api');
    await api.listen({ port: 0, host: '127.0.0.1' });
    const address = api.getHttpServer().address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    database = api.get<Database>(DATABASE);
    admin = new ApiClient(baseUrl);
    expect((await admin.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
  });
  afterAll(async () => {
    await stopWorker();
    await api?.close();
    await drop?.();
    await smtp?.stop();
  });

  it('is healthy with a worker running', async () => {
    await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(200);
    const body = await details();
    expect(body.status).toBe('ok');
    expect(body.feed?.host?.owner).toBeTruthy();
    expect(body.feed?.subscriptions.map((s) => s.name)).toEqual(
      expect.arrayContaining(['users', 'balances', 'invite-codes', 'waitlist', 'identity-mail', 'sessions']),
    );
    // The public answer tells the status and nothing of the inside.
    expect(Object.keys((await health()).body)).toEqual(['status']);
  });

  describe('with the worker stopped', () => {
    let user: ApiClient;
    let userId: string;
    let inviteBefore: InviteCode;

    beforeAll(async () => {
      user = new ApiClient(baseUrl);
      const login = await user.login('user@seatlink.test', 'User1234!');
      expect(login.status).toBe(200);
      userId = (login.body.user as User).id;
      inviteBefore = (await admin.request('POST', '/v1/admin/invites', { max_uses: 5, expires_at: tomorrow() })).body
        .invite_code as InviteCode;
      await stopWorker();
    });

    it('reports itself degraded: no process runs the subscriptions', async () => {
      await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(503);
      expect((await health()).body.status).toBe('degraded');
      expect((await details()).problems.join()).toMatch(/no process runs the subscriptions now/);
    });

    it('answers a credit change with 202 pending and the balance it set, not the stale one', async () => {
      const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 777, reason: 'Test' });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ message: 'Credits updated successfully', pending: true });
      expect((res.body.user as User).balance).toBe(777);
    });

    it('answers a created invite code with 202 and the code, never 404; a retry with its key makes no second', async () => {
      const body = { max_uses: 3, expires_at: tomorrow() };
      const headers = { 'idempotency-key': 'invite-while-down-1' };
      const first = await admin.request('POST', '/v1/admin/invites', body, { headers });
      expect(first.status).toBe(202);
      const invite = first.body.invite_code as InviteCode;
      expect(invite).toMatchObject({ used: 0, max_uses: 3, enabled: true });
      expect(invite.code).toMatch(/^[A-Z2-9]{10}$/);
      const retry = await admin.request('POST', '/v1/admin/invites', body, { headers });
      expect(retry.status).toBe(202);
      expect((retry.body.invite_code as InviteCode).code).toBe(invite.code);
    });

    it('answers a ban with 202 and is_banned true; the banned user is out at once and cannot sign in', async () => {
      const victim = new ApiClient(baseUrl);
      expect((await victim.login('user@seatlink.test', 'User1234!')).status).toBe(200);
      const res = await admin.request('POST', `/v1/admin/users/${userId}/toggle-ban`);
      expect(res.status).toBe(202);
      expect((res.body.user as User).is_banned).toBe(true);
      expect((await victim.request('GET', '/v1/me')).status).toBe(401);
      const again = await new ApiClient(baseUrl).login('user@seatlink.test', 'User1234!');
      expect(again.status).toBe(403);
      expect(again.body.code).toBe('ACCOUNT_BANNED');
    });

    it('ends every session at a password reset at once, with no worker to run the sessions reaction', async () => {
      const victim = new ApiClient(baseUrl);
      expect((await victim.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
      const token = await database.query<{ user_id: string }>(
        `select user_id from sessions order by created_at desc limit 1`,
      );
      const { AuthTokensService } = await import('../identity/auth-tokens.service.js');
      const resetToken = await api.get(AuthTokensService).issue(token[0]!.user_id, 'reset_password');
      const reset = await new ApiClient(baseUrl).request('POST', '/v1/auth/reset-password', {
        token: resetToken,
        password: 'Admin123!',
      });
      expect([200, 202]).toContain(reset.status);
      expect((await victim.request('GET', '/v1/me')).status).toBe(401);
      expect((await admin.request('GET', '/v1/me')).status).toBe(401);
      expect((await admin.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
    });

    it('signs in without waiting for the read models, answering the sign-in it recorded', async () => {
      const res = await new ApiClient(baseUrl).login('admin@seatlink.test', 'Admin123!');
      expect(res.status).toBe(200);
      const signedIn = res.body.user as User;
      expect(Date.now() - Date.parse(signedIn.last_logged_in_at!)).toBeLessThan(60_000);
    });

    it('registers with 202 pending; the e-mail waits for the worker', async () => {
      const res = await new ApiClient(baseUrl).request('POST', '/v1/auth/register', {
        email: 'late.mail@example.com',
        first_name: 'Lea',
        last_name: 'Late',
        password: 'Str0ng!pass',
        invite_code: inviteBefore.code,
        token: null,
      });
      expect(res.status).toBe(202);
      expect(res.body.pending).toBe(true);
      expect(smtp.messages.filter((m) => m.to === 'late.mail@example.com')).toEqual([]);
    });

    describe('then with the worker started again', () => {
      beforeAll(async () => {
        await startWorker();
        await subscriptionsCaughtUp(worker!);
      });

      it('catches up: the read models show every change made meanwhile, once', async () => {
        const users = (await admin.request('GET', '/v1/admin/users')).body.users as User[];
        expect(users.find((u) => u.id === userId)).toMatchObject({ is_banned: true, balance: 777 });
        const codes = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
        expect(codes.filter((c) => c.max_uses === 3)).toHaveLength(1);
        expect(codes.find((c) => c.code === inviteBefore.code)?.used).toBe(1);
        await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(200);
      });

      it('sends the e-mail the reaction owed, exactly once', async () => {
        await smtp.waitFor('late.mail@example.com', /Verify your email/);
        await new Promise((r) => setTimeout(r, 500));
        expect(smtp.messages.filter((m) => m.to === 'late.mail@example.com')).toHaveLength(1);
        const [row] = await database.query<{ status: string; text: string | null }>(
          `select status, text from mail_outbox where "to" = 'late.mail@example.com'`,
        );
        // Sent, and its link (a token) no longer kept.
        expect(row).toEqual({ status: 'sent', text: null });
      });

      it('sends nothing twice when the reaction reads its events again, and the link it sent still works', async () => {
        const mail = await smtp.waitFor('late.mail@example.com', /Verify your email/);
        await database.query(`update subscription_checkpoints set position = null where name = 'identity-mail'`);
        await subscriptionsCaughtUp(worker!);
        await new Promise((r) => setTimeout(r, 300));
        expect(smtp.messages.filter((m) => m.to === 'late.mail@example.com')).toHaveLength(1);
        const verified = await new ApiClient(baseUrl).request('POST', '/v1/auth/verify-email', {
          token: TestSmtpServer.token(mail),
        });
        expect(verified.status).toBe(200);
      });
    });
  });

  describe('a bad event', () => {
    it('is parked by the read model it breaks; every other read model and command carries on', async () => {
      if (!worker) await startWorker();
      // An invite expiring in the year 10000: the event is stored, but PostgreSQL refuses the date in the read model.
      const bus = api.get(CommandBus);
      await bus.execute(
        new InviteCommandMessage(
          {
            type: 'CreateInvite',
            data: {
              inviteId: '3f1c2b7a-0d9e-4c8b-a1f2-5e6d7c8b9a01',
              code: 'POISON2345',
              maxUses: 1,
              expiresAt: new Date(Date.UTC(10000, 0, 1)).toISOString(),
              createdBy: 'test',
              now: new Date().toISOString(),
            },
          },
          { actorId: 'test' },
        ),
      );
      await expect.poll(async () => (await details()).feed?.parked, { timeout: 10_000 }).toBe(1);
      // Other read models are not held back: a change is visible at once (200, not 202 pending).
      const users = (await admin.request('GET', '/v1/admin/users')).body.users as User[];
      const someone = users.find((u) => u.email === 'user@seatlink.test')!;
      const credits = await admin.request('PUT', `/v1/admin/users/${someone.id}/credits`, {
        credits: 12,
        reason: 'Test',
      });
      expect(credits.status).toBe(200);
      expect((credits.body.user as User).balance).toBe(12);
      // And the invite read model itself moved on past it.
      const next = await admin.request('POST', '/v1/admin/invites', { max_uses: 2, expires_at: tomorrow() });
      expect(next.status).toBe(201);

      // The public status is checked at most once a second: it turns within that.
      await expect.poll(async () => (await health()).status, { timeout: 5_000 }).toBe(503);
      expect((await details()).problems).toContain('1 parked event(s)');
      const parked = (await admin.request('GET', '/v1/admin/parked-events')).body.parked_events as ParkedEventView[];
      expect(parked).toHaveLength(1);
      expect(parked[0]).toMatchObject({ subscription: 'invite-codes', event_type: 'InviteCodeCreated' });
      expect(parked[0]!.error).not.toContain('params');

      const retry = await admin.request('POST', `/v1/admin/parked-events/${parked[0]!.id}/retry`);
      expect(retry.status).toBe(422);
      expect(retry.body.code).toBe('STILL_FAILING');
      const skip = await admin.request('POST', `/v1/admin/parked-events/${parked[0]!.id}/skip`);
      expect(skip.status).toBe(200);
      expect((skip.body.parked_event as ParkedEventView).status).toBe('skipped');
      // Once retried or skipped, it cannot be retried or skipped again.
      expect((await admin.request('POST', `/v1/admin/parked-events/${parked[0]!.id}/retry`)).status).toBe(409);
      expect((await admin.request('POST', `/v1/admin/parked-events/${parked[0]!.id}/skip`)).status).toBe(409);
      await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(200);

      expect((await admin.request('POST', `/v1/admin/parked-events/not-a-uuid/skip`)).status).toBe(400);
      expect(
        (await admin.request('POST', `/v1/admin/parked-events/3f1c2b7a-0d9e-4c8b-a1f2-5e6d7c8b9a02/skip`)).status,
      ).toBe(404);
      expect((await new ApiClient(baseUrl).request('GET', '/v1/admin/parked-events')).status).toBe(401);

      // A skip is a decision: a rebuild of the read model leaves the event out again, parks nothing, stays healthy.
      await worker!.get(SubscriptionOperations).reset(['invite-codes']);
      await subscriptionsCaughtUp(worker!);
      expect((await details()).feed?.parked).toBe(0);
      const after = (await admin.request('GET', '/v1/admin/parked-events?status=all')).body
        .parked_events as ParkedEventView[];
      expect(after.map((p) => [p.event_type, p.status])).toEqual([['InviteCodeCreated', 'skipped']]);
      const invites = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
      expect(invites.some((i) => i.code === 'POISON2345')).toBe(false);
      expect(invites.some((i) => i.code === (next.body.invite_code as InviteCode).code)).toBe(true);
      await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(200);
    });
  });

  describe('a transaction left open in the database', () => {
    it('shows as a stalled feed within seconds, and clears when it ends', async () => {
      if (!worker) await startWorker();
      await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(200);
      const idle = new pg.Client({ connectionString: config.DATABASE_URL });
      await idle.connect();
      try {
        // Holds the feed back: a transaction with an id, left open.
        await idle.query('begin');
        await idle.query('select pg_current_xact_id()');
        const users = (await admin.request('GET', '/v1/admin/users')).body.users as User[];
        const someone = users.find((u) => u.email === 'user@seatlink.test')!;
        await admin.request('PUT', `/v1/admin/users/${someone.id}/credits`, { credits: 31, reason: 'Test' });
        // Within seconds: well before the 60 s a long transaction alone needs to be reported.
        await expect
          .poll(async () => (await details()).problems.join(), { timeout: 15_000, interval: 250 })
          .toMatch(/the feed is stalled: events committed \d+ s ago cannot be read yet/);
        expect((await details()).feed?.heldBackSeconds).toBeGreaterThanOrEqual(5);
        expect((await health()).status).toBe(503);
      } finally {
        await idle.query('rollback').catch(() => undefined);
        await idle.end();
      }
      await expect.poll(async () => (await health()).status, { timeout: 10_000 }).toBe(200);
      expect((await details()).feed?.heldBackSeconds).toBeNull();
    }, 40_000);
  });
});
