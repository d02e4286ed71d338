import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { WebhookPayload } from '@seatlink/contracts';
import { expectNoA11yViolations } from './support/axe';
import { ageSessionsOf, createVerifiedUser, signIn } from './support/session';

/** One request the receiver got, as it came: the signature is over the raw body. */
interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

function eventOf(request: Received): WebhookPayload | null {
  try {
    return JSON.parse(request.body) as WebhookPayload;
  } catch {
    return null;
  }
}

/** A user's own system: records every request and answers 200. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The test events POSTed to the hook so far, in the order they came. */
    tests: () =>
      received.filter((r) => r.method === 'POST' && r.path === '/hook' && eventOf(r)?.type === 'webhook.test'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether `Seatlink-Signature: t=<unix>,v1=<hex>` is the HMAC-SHA256 of `t.body` under `secret`, and recent. */
function signedWith(secret: string, request: Received): boolean {
  const header = request.headers['seatlink-signature'];
  expect(header, 'a Seatlink-Signature header').toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
  const parts = String(header)
    .split(',')
    .map((part) => part.split('=') as [string, string]);
  const t = parts.find(([key]) => key === 't')![1];
  expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(300);
  const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex');
  return parts.some(([key, value]) => key === 'v1' && value === expected);
}

/**
 * Webhooks from the Settings page: an endpoint (a receiver on this machine) added with every event, its secret shown
 * once; a test event arrives signed with that secret, shows in the delivery log as delivered, and is resent; the
 * endpoint is turned off and on, its events changed, its secret rolled after a fresh proof (the next delivery signed
 * with the new one), and it is deleted.
 */
test('adds a webhook endpoint, receives a signed test event, sees its delivery, rolls the secret, deletes it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  try {
    const user = await createVerifiedUser(page, 'webhooks');
    await signIn(page, user);
    await page.goto('/dashboard/settings');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await expect(section.getByTestId('webhooks-none')).toHaveText('No webhook endpoints yet.');

    await section.getByRole('button', { name: 'Add an endpoint' }).click();
    await section.getByLabel('Endpoint URL').fill(receiver.url);
    // Every event is ticked to begin with, but the deprecated one-delivery-per-ticket event (offered, unticked).
    const events = section.getByRole('group', { name: 'Events to send' }).getByRole('checkbox');
    await expect(events).toHaveCount(8);
    await expect(section.getByLabel(/A link was claimed/)).toBeChecked();
    await expect(section.getByLabel(/up to 500 a delivery/)).toBeChecked();
    await expect(section.getByLabel(/^Deprecated: one delivery per ticket/)).not.toBeChecked();
    await expect(events.and(page.locator(':checked'))).toHaveCount(7);
    await expectNoA11yViolations(page, 'adding a webhook endpoint');
    await section.getByRole('button', { name: 'Add endpoint' }).click();

    const shown = section.getByTestId('webhook-secret');
    await expect(shown).toHaveText(/^whsec_[A-Za-z0-9_-]+$/);
    const secret = (await shown.textContent())!;
    await expectNoA11yViolations(page, 'a new webhook signing secret');
    await section.getByRole('button', { name: 'Done' }).click();

    const endpoint = section.getByTestId('webhook');
    await expect(endpoint).toHaveCount(1);
    await expect(endpoint.getByTestId('webhook-url')).toHaveText(receiver.url);
    await expect(endpoint.getByTestId('webhook-state')).toHaveText('Enabled');
    await expect(endpoint).toContainText('link.claimed');
    await expect(endpoint).toContainText('credits.changed');
    const listedPrefix = async () => /Secret (whsec_\S+)…/.exec((await endpoint.textContent()) ?? '')?.[1] ?? '';
    const prefix = await listedPrefix();
    expect(prefix.length > 'whsec_'.length && secret.startsWith(prefix), `the listed ${prefix} starts the secret`).toBe(
      true,
    );
    await expect(section.getByText(secret)).toHaveCount(0);
    await expectNoA11yViolations(page, 'a listed webhook endpoint');

    // A test event reaches the receiver, signed with the secret over its raw body.
    await endpoint.getByRole('button', { name: `Send a test event to ${receiver.url}` }).click();
    await expect(page.getByText('Test event queued').first()).toBeVisible();
    await expect.poll(() => receiver.tests().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const first = receiver.tests()[0]!;
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    const payload = JSON.parse(first.body) as WebhookPayload;
    expect(payload).toMatchObject({ type: 'webhook.test' });
    expect(payload.id).toBeTruthy();
    expect(signedWith(secret, first), 'signed with the secret shown').toBe(true);

    // The log shows it delivered with the receiver's 200, without a reload.
    const open = endpoint.getByRole('button', { name: `Deliveries to ${receiver.url}` });
    await open.click();
    await expect(open).toHaveAttribute('aria-expanded', 'true');
    const delivery = endpoint.getByTestId('webhook-delivery').filter({ hasText: 'webhook.test' });
    await expect(delivery).toHaveCount(1);
    await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText('delivered', { timeout: 15_000 });
    await expect(delivery.getByTestId('webhook-delivery-http')).toHaveText('200');
    await expect(delivery).toContainText(' ms');
    await expectNoA11yViolations(page, 'the delivery log of a webhook endpoint');

    // Resent: the same event comes again.
    await delivery.getByRole('button', { name: /^Resend/ }).click();
    await expect(page.getByText('Delivery queued again').first()).toBeVisible();
    await expect.poll(() => receiver.tests().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const again = receiver.tests()[1]!;
    expect((JSON.parse(again.body) as WebhookPayload).id).toBe(payload.id);
    expect(signedWith(secret, again)).toBe(true);

    // Off and on again.
    await endpoint.getByRole('button', { name: `Disable ${receiver.url}`, exact: true }).click();
    await expect(endpoint.getByTestId('webhook-state')).toHaveText('Disabled');
    await endpoint.getByRole('button', { name: `Enable ${receiver.url}`, exact: true }).click();
    await expect(endpoint.getByTestId('webhook-state')).toHaveText('Enabled');

    // Its events changed: one fewer.
    await endpoint.getByRole('button', { name: `Edit ${receiver.url}` }).click();
    const edit = section.getByTestId('webhook-edit');
    await expect(edit.getByLabel('Endpoint URL')).toHaveValue(receiver.url);
    await edit.getByLabel(/Your credit balance changed/).uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toHaveCount(0);
    await expect(endpoint).toContainText('tickets.synced');
    await expect(endpoint).not.toContainText('credits.changed');

    // A new secret, shown once after a confirmation, the old one kept signing beside it for an hour: the next
    // delivery is signed with both.
    await endpoint.getByRole('button', { name: `Roll secret of ${receiver.url}` }).click();
    const roll = page.getByRole('alertdialog', { name: 'Roll the signing secret?' });
    await expect(roll).toContainText('The old secret stops signing');
    await roll.getByLabel('The old secret').selectOption({ label: 'Keeps signing for 1 hour' });
    await expect(roll).toContainText('The old secret keeps signing deliveries');
    await expect(roll).toContainText('for 1 hour');
    // Long signed in: a new secret needs a fresh proof, asked for in between.
    await ageSessionsOf(user.email);
    await roll.getByRole('button', { name: 'Roll secret' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(stepUp).toContainText('Confirm it is you: enter your password');
    await stepUp.getByLabel('Password').fill(user.password);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await expect(stepUp).toBeHidden();
    await expect(shown).toHaveText(/^whsec_[A-Za-z0-9_-]+$/);
    const rolled = (await shown.textContent())!;
    expect(rolled).not.toBe(secret);
    await expect(
      page.getByText(/the old secret still signs deliveries, beside the new one, until/).first(),
    ).toBeVisible();
    await section.getByRole('button', { name: 'Done' }).click();
    await expect.poll(listedPrefix).not.toBe(prefix);
    expect(rolled.startsWith(await listedPrefix()), 'the listed prefix starts the new secret').toBe(true);
    await expect(endpoint.getByTestId('webhook-grace')).toContainText('The old secret signs too until');
    const testEvent = async () => {
      const before = receiver.tests().length;
      await endpoint.getByRole('button', { name: `Send a test event to ${receiver.url}` }).click();
      await expect.poll(() => receiver.tests().length, { timeout: 30_000 }).toBeGreaterThan(before);
      return receiver.tests()[before]!;
    };
    const inGrace = await testEvent();
    expect(signedWith(rolled, inGrace), 'signed with the new secret').toBe(true);
    expect(signedWith(secret, inGrace), 'and, in its grace, the old one').toBe(true);

    // Rolled again, the old secret stopped at once: the next delivery is signed with the newest only.
    await endpoint.getByRole('button', { name: `Roll secret of ${receiver.url}` }).click();
    await expect(roll.getByLabel('The old secret')).toHaveValue('0');
    await roll.getByRole('button', { name: 'Roll secret' }).click();
    await expect(shown).toHaveText(/^whsec_[A-Za-z0-9_-]+$/);
    const newest = (await shown.textContent())!;
    expect(newest).not.toBe(rolled);
    await section.getByRole('button', { name: 'Done' }).click();
    await expect(endpoint.getByTestId('webhook-grace')).toHaveCount(0);
    const latest = await testEvent();
    expect(signedWith(newest, latest), 'signed with the newest secret').toBe(true);
    expect(signedWith(rolled, latest), 'not with the one before').toBe(false);
    expect(signedWith(secret, latest), 'nor the first').toBe(false);

    // Deleted after a confirmation.
    await endpoint.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    const remove = page.getByRole('alertdialog', { name: 'Delete this webhook endpoint?' });
    await expect(remove).toContainText(receiver.url);
    await remove.getByRole('button', { name: 'Delete' }).click();
    await expect(section.getByTestId('webhooks-none')).toHaveText('No webhook endpoints yet.');
  } finally {
    await receiver.close();
  }
});
