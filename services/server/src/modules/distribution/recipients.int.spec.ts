import type { AuditEntry, DistributeResponse, Ticket, UpdateDistributionResponse } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { MailOutbox } from '../../infra/mail/mail.module.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { TestSmtpServer } from '../../testing/test-smtp.js';
import { newLinkHolder } from '../../testing/link-holder.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';
import { WarnExpiringLinksJob } from './warn-expiring-links.job.js';

const HOUR = 60 * 60 * 1000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

describe('named recipients: a link may name whom it is for, and Seatlink mails them (never the PIN)', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let smtp: TestSmtpServer;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;

  const holder = (tickets = 3) => newLinkHolder(stack, admin, control, { tickets, credits: 100 });
  /** Every e-mail queued so far, sent. */
  const deliver = async () => {
    await new Promise((r) => setTimeout(r, 100));
    await subscriptionsCaughtUp(stack.app);
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
  const balanceOf = async (client: ApiClient) => (await client.request('GET', '/v1/me')).body.balance as number;
  const ticketsOf = async (client: ApiClient) => (await client.request('GET', '/v1/tickets')).body.tickets as Ticket[];
  const distribute = (client: ApiClient, body: Record<string, unknown>) =>
    client.request('POST', '/v1/tickets/distribute', body);
  const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@recipient.test`;

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
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
    await smtp?.stop();
  });

  it('mails each of three named recipients their own link, without the PIN; the tickets and the audit name them', async () => {
    const { client, tickets, id } = await holder(3);
    const [sam, alex, jo] = [unique('sam'), unique('alex'), unique('jo')];
    const res = await distribute(client, {
      ticket_ids: tickets.map((t) => t.id),
      pin: '482913',
      recipients: [
        { ticket_id: tickets[0]!.id, name: '  Sam Jones ', email: sam.toUpperCase() },
        { ticket_id: tickets[1]!.id, name: 'Alex', email: alex },
        { ticket_id: tickets[2]!.id, email: jo },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = (res.body as unknown as DistributeResponse).distributions;
    expect(made).toHaveLength(3);
    await deliver();
    for (const [i, to] of [sam, alex, jo].entries()) {
      const mails = mailsTo(to);
      expect(mails, to).toHaveLength(1);
      const link = made.find((d) => d.ticket_id === tickets[i]!.id)!.link;
      expect(mails[0]!.text).toContain(link);
      for (const other of made.filter((d) => d.link !== link)) expect(mails[0]!.text).not.toContain(other.link);
      expect(mails[0]!.text).not.toContain('482913');
      expect(mails[0]!.text).toContain('the sender will give you it');
      expect(mails[0]!.text).toContain(tickets[i]!.title);
      expect(mails[0]!.headers.get('list-unsubscribe')).toContain('/v1/recipients/unsubscribe?token=');
    }
    expect(mailsTo(sam)[0]!.text).toMatch(/^Hello Sam Jones,/);
    const listed = await ticketsOf(client);
    expect(listed.find((t) => t.id === tickets[0]!.id)!.distribution!.recipient).toEqual({
      name: 'Sam Jones',
      email: sam,
    });
    expect(listed.find((t) => t.id === tickets[2]!.id)!.distribution!.recipient).toEqual({ name: null, email: jo });

    await subscriptionsCaughtUp(stack.app);
    const audits = (await admin.request('GET', `/v1/admin/users/${id}/audits?event_type=DISTRIBUTE&limit=50`)).body
      .audits as AuditEntry[];
    expect(audits.map((a) => a.event_data.recipient).sort()).toEqual(
      [`Sam Jones <${sam}>`, `Alex <${alex}>`, jo].sort(),
    );
  });

  it('refuses a recipient of a ticket not asked for, and bad names and e-mails, with a 400 and nothing charged', async () => {
    const { client, tickets } = await holder(2);
    const before = await balanceOf(client);
    const notListed = await distribute(client, {
      ticket_ids: [tickets[0]!.id],
      recipients: [{ ticket_id: tickets[1]!.id, name: 'Sam' }],
    });
    expect(notListed.status).toBe(400);
    expect(JSON.stringify(notListed.body)).toContain('that ticket is not among ticket_ids');
    const bad: unknown[] = [
      [{ ticket_id: tickets[0]!.id, name: 'Sam\u0000' }],
      [{ ticket_id: tickets[0]!.id, name: 'Sam\u202Emoc.evil' }],
      [{ ticket_id: tickets[0]!.id, name: 'x'.repeat(10_000) }],
      [{ ticket_id: tickets[0]!.id, email: 'x'.repeat(10_000) + '@a.test' }],
      [{ ticket_id: tickets[0]!.id, name: 42 }],
      [{ ticket_id: tickets[0]!.id, email: ['sam@a.test'] }],
      [{ ticket_id: tickets[0]!.id, email: 'not an address' }],
      [{ ticket_id: tickets[0]!.id, name: { a: { b: { c: { d: { e: { f: 'deep' } } } } } } }],
      [{ ticket_id: tickets[0]!.id, name: 'Sam', phone: '0123' }],
      [
        { ticket_id: tickets[0]!.id, name: 'Sam' },
        { ticket_id: tickets[0]!.id, name: 'Alex' },
      ],
      'Sam <sam@a.test>',
      [null],
    ];
    for (const recipients of bad) {
      const res = await distribute(client, { ticket_ids: [tickets[0]!.id], recipients });
      expect(res.status, JSON.stringify(recipients).slice(0, 80)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const deep = `{"ticket_ids":["${tickets[0]!.id}"],"recipients":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const nested = await client.request('POST', '/v1/tickets/distribute', undefined, { raw: deep });
    expect(nested.status).toBe(400);
    expect(await balanceOf(client)).toBe(before);
    expect((await ticketsOf(client)).every((t) => t.distribution === null)).toBe(true);
  });

  it('mails the new address when the e-mail changes, the withdrawal on recall, a moved expiry, and a near one once', async () => {
    const { client, tickets } = await holder(2);
    const [first, second] = [unique('first'), unique('second')];
    const res = await distribute(client, {
      ticket_ids: [tickets[0]!.id],
      expiry_date: inHours(48),
      recipients: [{ ticket_id: tickets[0]!.id, name: 'Pat', email: first }],
    });
    expect(res.status).toBe(200);
    const { distribution_id: id, link } = (res.body as unknown as DistributeResponse).distributions[0]!;
    await deliver();
    expect(mailsTo(first)).toHaveLength(1);

    // The address changes: the new one gets the link; the old one nothing more.
    const changed = await client.request('PATCH', `/v1/distributions/${id}`, {
      recipient: { name: 'Pat', email: second },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((changed.body as unknown as UpdateDistributionResponse).distribution.recipient).toEqual({
      name: 'Pat',
      email: second,
    });
    await deliver();
    expect(mailsTo(second)).toHaveLength(1);
    expect(mailsTo(second)[0]!.text).toContain(link);
    expect(mailsTo(first)).toHaveLength(1);
    // Only the name changes: nobody is mailed.
    expect(
      (await client.request('PATCH', `/v1/distributions/${id}`, { recipient: { name: 'Pat B', email: second } }))
        .status,
    ).toBe(200);

    // The expiry moves: the recipient hears of it.
    expect((await client.request('PATCH', `/v1/distributions/${id}`, { expiry_date: inHours(2) })).status).toBe(200);
    await deliver();
    expect(mailsTo(second).map((m) => m.subject)).toEqual([
      expect.stringContaining('sent you a ticket'),
      'The expiry of your ticket link changed',
    ]);

    // Within a day of expiry: told once, however often the job runs.
    const job = stack.app.get(WarnExpiringLinksJob);
    await subscriptionsCaughtUp(stack.app);
    await job.warnDue(new Date());
    await deliver();
    await job.warnDue(new Date());
    await deliver();
    expect(mailsTo(second).filter((m) => m.subject === 'Your ticket link expires soon')).toHaveLength(1);

    // Recalled: the recipient is told it no longer opens.
    expect((await client.request('POST', `/v1/distributions/${id}/recall`)).status).toBe(200);
    await deliver();
    const withdrawn = mailsTo(second).filter((m) => /withdrew your ticket link/.test(m.subject));
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]!.text).toContain('no longer opens');
    expect(mailsTo(second)).toHaveLength(4);

    // Removing the recipient of another link: the list says nobody.
    const other = await distribute(client, {
      ticket_ids: [tickets[1]!.id],
      recipients: [{ ticket_id: tickets[1]!.id, name: 'Lee' }],
    });
    const otherId = (other.body as unknown as DistributeResponse).distributions[0]!.distribution_id;
    const removed = await client.request('PATCH', `/v1/distributions/${otherId}`, { recipient: null });
    expect(removed.status).toBe(200);
    expect((removed.body as unknown as UpdateDistributionResponse).distribution.recipient).toBeNull();
    const bad = await client.request('PATCH', `/v1/distributions/${otherId}`, { recipient: { email: 'nope' } });
    expect(bad.status).toBe(400);
  });

  it('names the recipients of many links in one bulk edit; a link not listed keeps its own; the export lists them', async () => {
    const { client, tickets } = await holder(3);
    const kept = unique('kept');
    const res = await distribute(client, {
      ticket_ids: tickets.map((t) => t.id),
      recipients: [{ ticket_id: tickets[2]!.id, name: 'Kim', email: kept }],
    });
    expect(res.status).toBe(200);
    const made = (res.body as unknown as DistributeResponse).distributions;
    const idOf = (i: number) => made.find((d) => d.ticket_id === tickets[i]!.id)!.distribution_id;
    const ids = [idOf(0), idOf(1), idOf(2)];
    const [ana, ben] = [unique('ana'), unique('ben')];

    // Refused, nothing changed: a link not in the request, a link twice, a bad address, nothing to change at all.
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ distribution_ids: ids.slice(0, 2), recipients: [{ distribution_id: ids[2], name: 'X' }] }, /not among/],
      [
        {
          distribution_ids: ids,
          recipients: [
            { distribution_id: ids[0], name: 'X' },
            { distribution_id: ids[0], name: 'Y' },
          ],
        },
        /more than one recipient/,
      ],
      [{ distribution_ids: ids, recipients: [{ distribution_id: ids[0], email: 'nope' }] }, /valid email/],
      [{ distribution_ids: ids, recipients: [{ distribution_id: ids[0], name: 'a\u202Eb' }] }, /not allowed/],
      [{ distribution_ids: ids, recipients: [] }, /Nothing to update/],
      [{ distribution_ids: ids, recipients: { a: 1 } }, /Recipient must be an object/],
    ];
    for (const [body, message] of refusals) {
      const refused = await client.request('PATCH', '/v1/distributions', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toMatch(message);
    }

    const edited = await client.request('PATCH', '/v1/distributions', {
      distribution_ids: ids,
      label: 'Family',
      recipients: [
        { distribution_id: ids[0], name: 'Ana', email: ana },
        { distribution_id: ids[1], email: ben },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await deliver();
    expect(mailsTo(ana)).toHaveLength(1);
    expect(mailsTo(ben)).toHaveLength(1);
    expect(mailsTo(ana)[0]!.text).toContain(made.find((d) => d.distribution_id === ids[0])!.link);
    const listed = await ticketsOf(client);
    const recipientOf = (i: number) => listed.find((t) => t.id === tickets[i]!.id)!.distribution!.recipient;
    expect(recipientOf(0)).toEqual({ name: 'Ana', email: ana });
    expect(recipientOf(1)).toEqual({ name: null, email: ben });
    // Not listed: keeps Kim, and Kim is not mailed again.
    expect(recipientOf(2)).toEqual({ name: 'Kim', email: kept });
    expect(mailsTo(kept)).toHaveLength(1);

    // An entry with neither a name nor an e-mail names nobody any more.
    const cleared = await client.request('PATCH', '/v1/distributions', {
      distribution_ids: [ids[1]],
      recipients: [{ distribution_id: ids[1], name: '', email: null }],
    });
    expect(cleared.status).toBe(200);
    expect(recipientOf(0)).toEqual({ name: 'Ana', email: ana });
    expect((await ticketsOf(client)).find((t) => t.id === tickets[1]!.id)!.distribution!.recipient).toBeNull();

    // The export names whom each link is for.
    const csv = await fetch(`${stack.baseUrl}/v1/links/export.csv`, { headers: { cookie: client.sessionCookie } });
    const lines = (await csv.text()).split(/\r?\n/);
    expect(lines[0]).toContain('Label,Recipient,Recipient Email,State');
    expect(lines.find((l) => l.includes(ids[0]!))).toContain(`Family,Ana,${ana},active`);
    expect(lines.find((l) => l.includes(ids[1]!))).toContain('Family,,,active');
    expect(lines.find((l) => l.includes(ids[2]!))).toContain(`Family,Kim,${kept},active`);
  });

  it('unsubscribes with one click (recorded as an event): no later mail; a reset of the reaction sends nothing twice', async () => {
    const { client, tickets } = await holder(1);
    const to = unique('unsub');
    const res = await distribute(client, {
      ticket_ids: [tickets[0]!.id],
      expiry_date: inHours(48),
      recipients: [{ ticket_id: tickets[0]!.id, email: to }],
    });
    const { distribution_id: id } = (res.body as unknown as DistributeResponse).distributions[0]!;
    await deliver();
    const [mail] = mailsTo(to);
    const url = /<([^>]+)>/.exec(mail!.headers.get('list-unsubscribe')!)![1]!;
    const path = url.slice(url.indexOf('/v1/'));
    // Opened in a browser, it only asks.
    const asked = await fetch(`${stack.baseUrl}${path}`);
    expect(asked.status).toBe(200);
    const forged = await fetch(`${stack.baseUrl}${path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(forged.status).toBe(404);
    const done = await fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You will get no more e-mails about this link');
    const [events] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where type = 'LinkRecipientUnsubscribed' and data->>'distributionId' = $1`,
      [id],
    );
    expect(events!.n).toBe(1);
    expect((await client.request('PATCH', `/v1/distributions/${id}`, { expiry_date: inHours(30) })).status).toBe(200);
    expect((await client.request('POST', `/v1/distributions/${id}/recall`)).status).toBe(200);
    await deliver();
    expect(mailsTo(to)).toHaveLength(1);

    // A replay of the reaction (and of the links read model) from the start sends nothing again.
    const sent = smtp.messages.length;
    await stack.app.get(SubscriptionOperations).reset(['links']);
    await database.query(`update subscription_checkpoints set position = null where name = 'recipient-mails'`);
    await subscriptionsCaughtUp(stack.app);
    await deliver();
    expect(smtp.messages.length).toBe(sent);
    expect((await ticketsOf(client))[0]!.distribution).toBeNull();
  });

  it('twenty distributes of one ticket at once with a recipient: one link, one mail', async () => {
    const { client, tickets } = await holder(1);
    const to = unique('burst');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        distribute(client, {
          ticket_ids: [tickets[0]!.id],
          recipients: [{ ticket_id: tickets[0]!.id, name: 'Burst', email: to }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    await deliver();
    expect(mailsTo(to)).toHaveLength(1);
    const [links] = await database.query<{ n: number }>(`select count(*)::int as n from links where ticket_id = $1`, [
      tickets[0]!.id,
    ]);
    expect(links!.n).toBe(1);
  });
});
