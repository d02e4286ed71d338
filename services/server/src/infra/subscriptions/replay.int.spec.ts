import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditsCommandMessage } from '../../modules/credits/credits.command.js';
import { DistributeTicketsCommand } from '../../modules/distribution/distribute-tickets.command.js';
import { LinkClaims } from '../../modules/distribution/link-claims.service.js';
import { TicketDistributionCommandMessage } from '../../modules/distribution/ticket-distribution.command.js';
import { RegisterUserCommand } from '../../modules/identity/register-user.command.js';
import { UserCommandMessage } from '../../modules/identity/user.command.js';
import { InviteCommandMessage } from '../../modules/invites/invite.command.js';
import { NotificationsCommandMessage } from '../../modules/notifications/notifications.command.js';
import type { NotificationsCommand } from '../../modules/notifications/notifications.decider.js';
import { walletAccountDecider } from '../../modules/wallet-accounts/wallet-account.decider.js';
import { walletAccountStream } from '../../modules/wallet-accounts/wallet-account.events.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { queryRows, type Database } from '../db/database.js';
import { DATABASE } from '../db/database.module.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port.js';
import { SubscriptionHost } from './subscription-host.js';
import { SubscriptionOperations } from './subscription-operations.js';
import { SubscriptionHostService, SubscriptionRegistry } from './subscriptions.module.js';
import { ApiKeysCommandMessage } from '../../modules/api-keys/api-keys.command.js';
import { WebhooksCommandMessage } from '../../modules/webhooks/webhooks.command.js';
import type { WebhooksCommand } from '../../modules/webhooks/webhooks.decider.js';

/**
 * A table's rows, without what a rebuild writes differently by design: the versions of versioned read models (the
 * transaction that wrote the row) and the numbers audit entries are made in (the same order, numbered afresh).
 */
async function dump(database: Database, table: string) {
  const rows = await queryRows<{ row: Record<string, unknown> }>(
    database.db,
    sql.raw(
      `select to_jsonb(t) - 'version' - 'seq' as row from "${table}" t order by (to_jsonb(t) - 'version' - 'seq')::text`,
    ),
  );
  return rows.map((r) => r.row);
}

/** An admin (`by`) sets a user's credits. */
const setCredits = (userId: string, credits: number, by: string) =>
  new CreditsCommandMessage(
    { type: 'SetCredits', data: { userId, credits, setBy: by, reason: 'Replay test', now: new Date().toISOString() } },
    { actorId: by },
  );

describe('replay', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ redis: false });
  });
  afterAll(async () => stack?.close());

  it('rebuilds every read model equal to the live-built one, set-based batches or not, in the database or not', async () => {
    const bus = stack.app.get(CommandBus);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { userId } = await bus.execute(
        new RegisterUserCommand({
          email: `replay${i}@example.com`,
          password: 'Passw0rd!',
          firstName: `F${i}`,
          lastName: `L${i}`,
          isAdmin: i === 0,
          emailVerified: i % 2 === 0,
        }),
      );
      ids.push(userId);
    }
    for (let round = 0; round < 5; round++) {
      for (const [i, userId] of ids.entries()) {
        await bus.execute(setCredits(userId, round * 10 + i, ids[0]!));
      }
    }
    for (const userId of ids.slice(0, 3)) {
      await bus.execute(
        new UserCommandMessage(
          { type: 'ToggleBan', data: { userId, by: ids[0]!, now: new Date().toISOString() } },
          { actorId: ids[0]! },
        ),
      );
      await bus.execute(
        new UserCommandMessage(
          { type: 'RecordLogin', data: { userId, now: new Date().toISOString() } },
          { actorId: userId },
        ),
      );
    }
    // Access and money of the audit log: a reset asked by an admin, a new device, sessions signed out, an authenticator
    // on and off with a recovery code, a passkey added and removed; a card payment, part of it refunded, a dispute.
    const user = (command: ConstructorParameters<typeof UserCommandMessage>[0], actorId = ids[3]!) =>
      bus.execute(new UserCommandMessage(command, { actorId, ip: '192.0.2.9', commandId: randomUUID() }));
    const now = () => new Date().toISOString();
    await user({ type: 'RequestPasswordReset', data: { userId: ids[3]!, by: ids[0]!, now: now() } }, ids[0]);
    await user({
      type: 'RecordNewDevice',
      data: { userId: ids[3]!, device: 'Firefox on Linux', ip: '192.0.2.9', now: now() },
    });
    await user({ type: 'RecordSessionsSignedOut', data: { userId: ids[3]!, count: 2, now: now() } });
    await user({ type: 'EnableTotp', data: { userId: ids[3]!, recoveryCodeHashes: ['h1', 'h2'], now: now() } });
    await user({ type: 'DisableTotp', data: { userId: ids[3]!, recoveryCodeHash: 'h1', now: now() } });
    const passkey = { credentialId: 'cred-1', publicKey: 'pk', name: 'Laptop', transports: ['internal'] };
    await user({ type: 'AddPasskey', data: { ...passkey, userId: ids[3]!, recoveryCodeHashes: ['h3'], now: now() } });
    await user({ type: 'RemovePasskey', data: { userId: ids[3]!, credentialId: 'cred-1', now: now() } });
    const card = (command: ConstructorParameters<typeof CreditsCommandMessage>[0]) =>
      bus.execute(new CreditsCommandMessage(command, { commandId: randomUUID() }));
    await card({
      type: 'PurchaseCredits',
      data: { userId: ids[3]!, amount: 25, amountPence: 2500, paymentIntentId: 'pi_1', now: now() },
    });
    await card({
      type: 'ReverseCredits',
      data: {
        userId: ids[3]!,
        totalCredits: 10,
        reason: 'refund',
        reference: 're_1',
        paymentIntentId: 'pi_1',
        now: now(),
      },
    });
    await card({
      type: 'RecordDispute',
      data: {
        userId: ids[3]!,
        paymentIntentId: 'pi_1',
        disputeId: 'dp_1',
        amountPence: 1500,
        reason: 'fraudulent',
        now: now(),
      },
    });
    const codes = ['REPLAYAAA2', 'REPLAYBBB3', 'REPLAYCCC4'];
    for (const code of codes) {
      await bus.execute(
        new InviteCommandMessage(
          {
            type: 'CreateInvite',
            data: {
              inviteId: randomUUID(),
              code,
              maxUses: 3,
              expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
              createdBy: ids[0]!,
              now: new Date().toISOString(),
            },
          },
          { actorId: ids[0]! },
        ),
      );
    }
    await bus.execute(
      new InviteCommandMessage(
        { type: 'DisableInvite', data: { code: codes[1]!, by: ids[0]!, now: new Date().toISOString() } },
        { actorId: ids[0]! },
      ),
    );
    await bus.execute(
      new InviteCommandMessage(
        { type: 'DeleteInvite', data: { code: codes[2]!, by: ids[0]!, now: new Date().toISOString() } },
        { actorId: ids[0]! },
      ),
    );
    // Wallet accounts with tickets, one pass in two accounts (a duplicate group), a ticket gone, an account deleted.
    const store0 = stack.app.get<EventStore>(EVENT_STORE);
    const pass = (id: string) => ({
      passId: id,
      barcode: `BC-${id}`,
      title: `Match ${id}`,
      subtitle: null,
      logo: null,
      venueName: 'Quayside',
      section: '1',
      row: 'A',
      seat: id,
      nextGame: null,
      nextGameDate: null,
    });
    const accountIds = [randomUUID(), randomUUID(), randomUUID()];
    // The subscriptions wait while the accounts' history is written: a linked account's first sync (a job the
    // schedule reaction adds at once) finds no kept sign-in here and puts the account in error, and a sync recorded
    // after that changes nothing, so it must not land between this history's two syncs.
    const host = stack.app.get(SubscriptionHostService).host!;
    await host.stop();
    for (const [i, accountId] of accountIds.entries()) {
      const run = (command: Parameters<typeof walletAccountDecider.decide>[0]) =>
        handleCommand(store0, walletAccountDecider, walletAccountStream(accountId), command, {
          metadata: {},
          commandId: randomUUID(),
        });
      const now = new Date().toISOString();
      await run({
        type: 'LinkAccount',
        data: {
          accountId,
          userId: ids[i]!,
          email: `w${i}@wallet.test`,
          providerAccountId: `p${i}`,
          firstName: 'W',
          lastName: `${i}`,
          displayName: `W ${i}`,
          now,
        },
      });
      await run({
        type: 'RecordSync',
        data: { accountId, passes: [pass('shared'), pass(`own${i}`), pass(`x${i}`)], now },
      });
      await run({ type: 'RecordSync', data: { accountId, passes: [pass('shared'), pass(`own${i}`)], now } });
    }
    await handleCommand(
      store0,
      walletAccountDecider,
      walletAccountStream(accountIds[2]!),
      {
        type: 'DeleteAccount',
        data: { accountId: accountIds[2]!, userId: ids[2]!, now: new Date().toISOString() },
      },
      { metadata: {}, commandId: randomUUID() },
    );
    host.start();
    await subscriptionsCaughtUp(stack.app);
    // Links: three made (one in a bulk request), clicked, one recalled, a request refused; clicks as events.
    await bus.execute(setCredits(ids[0]!, 100, ids[0]!));
    await subscriptionsCaughtUp(stack.app);
    const own = await queryRows<{ id: string }>(
      stack.app.get<Database>(DATABASE).db,
      sql`select id from tickets where user_id = ${ids[0]!} order by id`,
    );
    const outcome = await bus.execute(
      new DistributeTicketsCommand({
        userId: ids[0]!,
        ticketIds: own.map((t) => t.id),
        expiresAt: null,
        maxClicks: 3,
        label: null,
        pin: null,
        commandId: randomUUID(),
      }),
    );
    expect(outcome.distributed.length).toBeGreaterThan(0);
    await bus.execute(
      new DistributeTicketsCommand({
        userId: ids[0]!,
        ticketIds: [own[0]!.id],
        expiresAt: null,
        maxClicks: null,
        label: null,
        pin: null,
        commandId: randomUUID(),
      }),
    );
    await subscriptionsCaughtUp(stack.app);
    const claims = stack.app.get(LinkClaims);
    for (const d of outcome.distributed) {
      for (let i = 0; i < 4; i++) await claims.claim(d.code, 'https://fallback').catch(() => undefined);
    }
    await bus.execute(
      new TicketDistributionCommandMessage(
        {
          type: 'Recall',
          data: {
            ticketId: outcome.distributed[0]!.ticketId,
            distributionId: outcome.distributed[0]!.distributionId,
            userId: ids[0]!,
            now: new Date().toISOString(),
          },
        },
        { actorId: ids[0]!, commandId: randomUUID() },
      ),
    );
    // Notifications: the claims gathered, some read, more claims after; e-mail chosen for one kind.
    await subscriptionsCaughtUp(stack.app);
    const notify = (command: NotificationsCommand) =>
      bus.execute(new NotificationsCommandMessage(command, { actorId: ids[0]!, commandId: randomUUID() }));
    await notify({
      type: 'MarkRead',
      data: { userId: ids[0]!, ids: null, requestId: randomUUID(), now: new Date().toISOString() },
    });
    await notify({
      type: 'SetEmailPreferences',
      data: { userId: ids[0]!, email: { link_claimed: 'daily' }, now: new Date().toISOString() },
    });
    // API keys: two made, one revoked.
    const keys = [randomUUID(), randomUUID()];
    for (const keyId of keys) {
      const data = {
        userId: ids[0]!,
        keyId,
        name: `Key ${keyId}`,
        scopes: ['links:write' as const],
        prefix: 'sl_live_AbCd',
      };
      await bus.execute(
        new ApiKeysCommandMessage(
          { type: 'CreateApiKey', data: { ...data, keyHash: keyId, now: new Date().toISOString() } },
          { actorId: ids[0]!, commandId: randomUUID() },
        ),
      );
    }
    await bus.execute(
      new ApiKeysCommandMessage(
        { type: 'RevokeApiKey', data: { userId: ids[0]!, keyId: keys[0]!, now: new Date().toISOString() } },
        { actorId: ids[0]!, commandId: randomUUID() },
      ),
    );
    // Webhook endpoints: three added; one changed and disabled by Seatlink, one's secret rolled (the old one kept
    // signing for an hour), one deleted.
    const endpoints = [randomUUID(), randomUUID(), randomUUID()];
    const hook = (command: WebhooksCommand) =>
      bus.execute(new WebhooksCommandMessage(command, { actorId: ids[0]!, commandId: randomUUID() }));
    const at = () => new Date().toISOString();
    for (const endpointId of endpoints) {
      await hook({
        type: 'CreateWebhookEndpoint',
        data: {
          userId: ids[0]!,
          endpointId,
          url: `https://example.com/${endpointId}`,
          events: ['link.claimed'],
          secretSealed: 'sealed',
          secretPrefix: 'whsec_AbCd',
          now: at(),
        },
      });
    }
    const [changed, rolled, deleted] = endpoints as [string, string, string];
    await hook({
      type: 'UpdateWebhookEndpoint',
      data: { userId: ids[0]!, endpointId: changed, events: ['link.expired', 'credits.changed'], now: at() },
    });
    await hook({
      type: 'DisableFailingWebhookEndpoint',
      data: { userId: ids[0]!, endpointId: changed, reason: 'Failing', now: at() },
    });
    await hook({
      type: 'RollWebhookSecret',
      data: {
        userId: ids[0]!,
        endpointId: rolled,
        secretSealed: 'sealed-2',
        secretPrefix: 'whsec_EfGh',
        graceSeconds: 3600,
        now: at(),
      },
    });
    await hook({ type: 'DeleteWebhookEndpoint', data: { userId: ids[0]!, endpointId: deleted, now: at() } });
    for (const d of outcome.distributed.slice(1)) await claims.claim(d.code, 'https://fallback').catch(() => undefined);
    await subscriptionsCaughtUp(stack.app);
    await subscriptionsCaughtUp(stack.app);

    const database = stack.app.get<Database>(DATABASE);
    const store = stack.app.get<EventStore>(EVENT_STORE);
    await stack.app.get(SubscriptionHostService).host!.stop();
    const projections = stack.app.get(SubscriptionRegistry).projections();
    const tables = [...new Set(projections.flatMap((p) => p.tables ?? []))].sort();
    expect(tables).toEqual([
      'api_keys',
      'audit_entries',
      'audit_names',
      'credit_balances',
      'invite_codes',
      'link_activity_days',
      'link_click_minutes',
      'link_open_minutes',
      'link_open_totals',
      'links',
      'notification_preferences',
      'notification_subjects',
      'notifications',
      'pass_groups',
      'removed_tickets',
      'tickets',
      'user_streams',
      'users',
      'waitlist_entries',
      'wallet_accounts',
      'webhook_endpoints',
    ]);
    // What a rebuild keeps of removed tickets depends on its batches (a ticket found and gone in one batch never had a
    // row to delete); a version from before a rebuild is answered in full anyway.
    const compared = tables.filter((t) => t !== 'removed_tickets');
    const before = Object.fromEntries(
      await Promise.all(compared.map(async (t) => [t, await dump(database, t)] as const)),
    );
    expect((before.users as unknown[]).length).toBe(10);
    // The rolled secret's grace, as the events recorded it: the rebuild must give the same moment.
    expect(
      (before.webhook_endpoints as Array<{ endpoint_id: string; previous_secret_until: unknown }>).find(
        (w) => w.endpoint_id === rolled,
      )?.previous_secret_until,
    ).toBeTruthy();
    expect((before.api_keys as Array<{ revoked_at: unknown }>).map((k) => k.revoked_at !== null).sort()).toEqual([
      false,
      true,
    ]);
    expect(
      (before.webhook_endpoints as Array<{ enabled: boolean; secret_prefix: string; deleted_at: unknown }>)
        .map((w) => [w.enabled, w.secret_prefix, w.deleted_at !== null])
        .sort(),
    ).toEqual([
      [false, 'whsec_AbCd', false],
      [true, 'whsec_AbCd', true],
      [true, 'whsec_EfGh', false],
    ]);
    expect((before.credit_balances as unknown[]).length).toBe(9);
    expect((before.invite_codes as unknown[]).length).toBe(2);
    expect((before.wallet_accounts as unknown[]).length).toBe(2);
    expect((before.tickets as unknown[]).length).toBe(4);
    expect((before.links as Array<{ clicks: number; recalled_at: unknown }>).map((l) => l.clicks)).toEqual([3, 3]);
    // The audit log: every kind, a link's clicks one row per link and hour (the story's clicks are seconds apart,
    // though they may cross an hour), its names.
    const entries = before.audit_entries as Array<{ event_type: string; count: number; kind: string }>;
    const typesLogged = new Set(entries.map((e) => e.event_type));
    for (const type of [
      'DISTRIBUTE',
      'TICKET_RECALLED',
      'LINK_CLAIMED',
      'CREDITS_SET',
      'CREDITS_BOUGHT',
      'CREDITS_SPENT',
      'CREDITS_TAKEN_BACK',
      'PAYMENT_DISPUTED',
      'USER_BANNED',
      'PASSWORD_RESET_REQUESTED',
      'NEW_DEVICE_SIGN_IN',
      'SESSIONS_ENDED',
      'AUTHENTICATOR_ADDED',
      'AUTHENTICATOR_REMOVED',
      'RECOVERY_CODE_USED',
      'PASSKEY_ADDED',
      'PASSKEY_REMOVED',
      'API_KEY_CREATED',
      'API_KEY_REVOKED',
      'WEBHOOK_ADDED',
      'WEBHOOK_CHANGED',
      'WEBHOOK_DISABLED',
      'WEBHOOK_DELETED',
    ])
      expect(typesLogged, type).toContain(type);
    const claimed = entries.filter((e) => e.event_type === 'LINK_CLAIMED');
    expect(claimed.reduce((sum, e) => sum + e.count, 0)).toBe(6);
    expect(claimed.length).toBeLessThanOrEqual(4);
    expect(new Set(entries.map((e) => e.kind))).toEqual(new Set(['links', 'money', 'access']));
    const names = before.audit_names as Array<{ kind: string; name: string | null }>;
    expect(new Set(names.map((n) => n.kind))).toEqual(
      new Set(['user', 'ticket', 'link', 'api-key', 'webhook', 'passkey']),
    );
    expect((before.link_click_minutes as Array<{ clicks: number }>).reduce((s, m) => s + m.clicks, 0)).toBe(6);
    // The shared pass: held by the two live accounts' tickets, in claim order.
    expect((before.pass_groups as Array<{ holders: string[] }>).some((g) => g.holders.length === 2)).toBe(true);

    // Batches of 1 (one event at a time) and of 1000 must build the same rows as the live projection did; and so must
    // the projections that apply their events inside the database when they apply them here instead.
    const inProcess: EventStore = Object.assign(Object.create(store) as EventStore, { applyInDatabase: undefined });
    expect(projections.filter((p) => p.inDatabase).map((p) => p.name)).toEqual([
      'links',
      'link-click-timeline',
      'link-opens',
      'audit-log',
    ]);
    for (const [batchSize, from] of [
      [1, store],
      [1000, store],
      [1000, inProcess],
    ] as const) {
      const names = projections.map((p) => p.name);
      await new SubscriptionOperations(database, store, () => projections).reset(names);
      expect(await dump(database, 'users')).toEqual([]);
      // A database function that fails would leave its pages to the process, unseen: it must not fail.
      const warnings: string[] = [];
      const logger = {
        log: () => undefined,
        warn: (m: string) => warnings.push(m),
        error: (m: string) => warnings.push(m),
      };
      const read = await new SubscriptionHost(database, from, projections, { batchSize, logger }).drain({ names });
      expect(read).toBeGreaterThan(0);
      expect(warnings).toEqual([]);
      const after = Object.fromEntries(
        await Promise.all(compared.map(async (t) => [t, await dump(database, t)] as const)),
      );
      expect(after).toEqual(before);
    }
  });
});
