import type { NotificationPreferences, Ticket } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { MailOutbox } from '../../infra/mail/mail.module.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { TestSmtpServer } from '../../testing/test-smtp.js';
import { claimLink, newLinkHolder, makeLink as makeLinkOf } from '../../testing/link-holder.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';
import { SendNotificationEmailsJob } from './send-notification-emails.job.js';

describe('notification e-mails: chosen per kind, at once or in a daily digest, each with a one-click unsubscribe', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let smtp: TestSmtpServer;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let job: SendNotificationEmailsJob;

  const holder = () => newLinkHolder(stack, admin, control);
  const makeLink = async (client: ApiClient, ticket: Ticket, options: Record<string, unknown> = {}) =>
    (await makeLinkOf(client, ticket, options)).code;
  const claim = (code: string) => claimLink(stack.baseUrl, code);
  const settled = async () => {
    await new Promise((r) => setTimeout(r, 150));
    await subscriptionsCaughtUp(stack.app);
  };
  const choose = (client: ApiClient, email: Record<string, unknown>) =>
    client.request('PUT', '/v1/me/notification-preferences', { email });
  const deliver = async () => {
    stack.app.get(MailOutbox).nudge();
    await expect
      .poll(
        async () =>
          (
            await database.query<{ n: number }>(`select count(*)::int as n from mail_outbox where status = 'pending'`)
          )[0]!.n,
      )
      .toBe(0);
  };
  const mailsTo = (to: string) => smtp.messages.filter((m) => m.to === to);
  /** 09:00 or 07:00 in London on the day after today. */
  const tomorrowAt = (hour: number) => {
    const d = new Date(Date.now() + 24 * 60 * 60 * 1000);
    d.setUTCHours(hour, 0, 0, 0); // London is UTC in winter, UTC+1 in summer: a test at 07:00 UTC is before 08:00 either way
    return hour >= 8 ? new Date(d.getTime() + 60 * 60 * 1000) : d;
  };

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    smtp = new TestSmtpServer();
    const smtpUrl = await smtp.start();
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WALLET_SYNC_EVERY_MS: '600000',
        SMTP_URL: smtpUrl,
      },
    });
    database = stack.app.get<Database>(DATABASE);
    job = stack.app.get(SendNotificationEmailsJob);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
    await smtp?.stop();
  });

  it('starts with no e-mail, keeps the kinds a change leaves out, and refuses what is not a setting', async () => {
    const { client } = await holder();
    const none = (await client.request('GET', '/v1/me/notification-preferences'))
      .body as unknown as NotificationPreferences;
    expect(Object.values(none.email)).toEqual(['off', 'off', 'off', 'off', 'off', 'off']);
    const set = await choose(client, { link_claimed: 'immediate', credits_added: 'daily' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      email: {
        link_claimed: 'immediate',
        link_limit_reached: 'off',
        link_expiring: 'off',
        link_pin_guessed: 'off',
        account_reauth: 'off',
        credits_added: 'daily',
      },
    });
    await choose(client, { link_expiring: 'daily' });
    expect(
      ((await client.request('GET', '/v1/me/notification-preferences')).body as unknown as NotificationPreferences)
        .email,
    ).toMatchObject({ link_claimed: 'immediate', link_expiring: 'daily', credits_added: 'daily' });
    let deep: unknown = 'daily';
    for (let i = 0; i < 100; i++) deep = { link_claimed: deep };
    for (const body of [
      {},
      { email: {} },
      { email: { link_claimed: 'weekly' } },
      { email: { link_clicked: 'daily' } },
      { email: { link_claimed: 'daily' }, extra: true },
      { email: { link_claimed: 'daily\u0000' } },
      { email: deep },
      { email: 'daily' },
      [],
    ]) {
      const res = await client.request('PUT', '/v1/me/notification-preferences', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await new ApiClient(stack.baseUrl).request('GET', '/v1/me/notification-preferences')).status).toBe(401);
  });

  it('mails a claim at the next run, once, with what it says and a one-click unsubscribe; a claim since mails again', async () => {
    const { client, email, tickets } = await holder();
    const code = await makeLink(client, tickets[0]!, { label: 'for Sam' });
    // A claim before the kind was chosen is not mailed.
    await claim(code);
    await settled();
    expect((await choose(client, { link_claimed: 'immediate' })).status).toBe(200);
    await settled();
    expect(await job.sendDue(new Date())).toBe(0);
    await claim(code);
    await settled();
    // Five runs at once (two workers, a retry) queue one e-mail.
    const runs = await Promise.all(Array.from({ length: 5 }, () => job.sendDue(new Date())));
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await deliver();
    expect(mailsTo(email)).toHaveLength(1);
    const mail = mailsTo(email)[0]!;
    expect(mail.subject).toBe(`Seatlink: 2 new claims on ${tickets[0]!.title} (for Sam)`);
    expect(mail.text).toContain('Choose which e-mails you get: http://localhost:3000/dashboard/settings');
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /^<(http:\/\/localhost:3000\/v1\/notifications\/unsubscribe\?token=[A-Za-z0-9_-]+)>$/.exec(
      mail.headers.get('list-unsubscribe') ?? '',
    );
    expect(unsubscribe).not.toBeNull();
    expect(mail.text).toContain(unsubscribe![1]);
    expect(await job.sendDue(new Date())).toBe(0);

    await claim(code);
    await settled();
    expect(await job.sendDue(new Date())).toBe(1);
    await deliver();
    expect(mailsTo(email).map((m) => m.subject)).toEqual([
      `Seatlink: 2 new claims on ${tickets[0]!.title} (for Sam)`,
      `Seatlink: 3 new claims on ${tickets[0]!.title} (for Sam)`,
    ]);
    // Read in the dashboard: nothing more to mail about it.
    await client.request('POST', '/v1/notifications/read', { all: true });
    await claim(code);
    await settled();
    await client.request('POST', '/v1/notifications/read', { all: true });
    await settled();
    expect(await job.sendDue(new Date())).toBe(0);
  });

  it('gathers the daily kinds in one digest a day, from 08:00 in London', async () => {
    const { client, email, tickets } = await holder();
    expect((await choose(client, { link_claimed: 'daily', link_limit_reached: 'daily' })).status).toBe(200);
    await settled();
    const code = await makeLink(client, tickets[0]!, { max_clicks: 2 });
    await claim(code);
    await claim(code);
    await settled();
    expect(await job.sendDue(tomorrowAt(7))).toBe(0);
    expect(await job.sendDue(tomorrowAt(9))).toBe(1);
    expect(await job.sendDue(tomorrowAt(10))).toBe(0);
    await deliver();
    const [digest] = mailsTo(email);
    expect(digest!.subject).toBe('Your Seatlink daily digest');
    expect(digest!.text).toContain(`2 new claims on ${tickets[0]!.title}`);
    expect(digest!.text).toContain(`The link for ${tickets[0]!.title} reached its limit of 2 clicks`);
  });

  it('unsubscribes with one POST from the mail client; opening the link only asks', async () => {
    const { client, id, email, tickets } = await holder();
    expect((await choose(client, { link_claimed: 'immediate', credits_added: 'daily' })).status).toBe(200);
    await settled();
    await claim(await makeLink(client, tickets[0]!));
    await settled();
    expect(await job.sendDue(new Date())).toBe(1);
    await deliver();
    const url = /^<(.+)>$/
      .exec(mailsTo(email)[0]!.headers.get('list-unsubscribe')!)![1]!
      .replace('http://localhost:3000', stack.baseUrl);
    const asked = await fetch(url);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('<form method="post">');
    const preferences = async () =>
      ((await client.request('GET', '/v1/me/notification-preferences')).body as unknown as NotificationPreferences)
        .email;
    expect((await preferences()).link_claimed).toBe('immediate');

    const oneClick = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const answers = await Promise.all([oneClick(), oneClick(), oneClick()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await answers[0].text()).toContain('You will get no more notification e-mails from Seatlink');
    await settled();
    expect(Object.values(await preferences())).toEqual(['off', 'off', 'off', 'off', 'off', 'off']);
    const [events] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where stream_id = $1 and data->>'via' = 'unsubscribe'`,
      [`notifications-${id}`],
    );
    expect(events!.n).toBe(1);
    await claim(await makeLink(client, tickets[1]!));
    await settled();
    expect(await job.sendDue(new Date())).toBe(0);

    // A token that is none, or not one at all; a form posted anywhere else.
    const wrong = url.replace(/token=.*/, `token=${'A'.repeat(43)}`);
    expect((await fetch(wrong, { method: 'POST' })).status).toBe(404);
    expect((await fetch(url.replace(/token=.*/, 'token=%00%E2%80%AE'))).status).toBe(400);
    expect((await fetch(url.replace(/\?.*/, ''), { method: 'POST' })).status).toBe(400);
    const elsewhere = await fetch(`${stack.baseUrl}/v1/notifications/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: client.sessionCookie },
      body: 'all=true',
    });
    expect(elsewhere.status).toBe(415);
  });

  it('mails nothing again after a rebuild of the notifications', async () => {
    await subscriptionsCaughtUp(stack.app);
    await stack.app.get(SubscriptionOperations).reset(['notifications', 'notification-preferences']);
    await subscriptionsCaughtUp(stack.app);
    expect(await job.sendDue(new Date())).toBe(0);
    expect(await job.sendDue(tomorrowAt(9))).toBe(0);
  });
});
