import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/ports.js';
import { startTestStack, type TestStack } from '../../testing/test-app.js';

const KEY = randomBytes(24).toString('base64url');
/** The key with its last character changed: never the key itself, whatever that character is. */
const WRONG_KEY = KEY.slice(0, -1) + (KEY.endsWith('x') ? 'y' : 'x');

/** A call to the product's port, with or without the simulator's control key. */
async function call(base: string, method: string, url: string, body?: unknown, key?: string) {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === undefined ? {} : { 'x-control-key': key }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe('the simulator mounted on the product’s port (no WALLET_PROVIDER_URL)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ port, redis: false, env: { PORT: String(port), WALLET_SIM_CONTROL_KEY: KEY } });
    expect(stack.config.mountWalletSim).toBe(true);
  });
  afterAll(async () => stack?.close());

  it('answers no control call without its key, whatever is tried at once, and changes nothing', async () => {
    const before = await call(stack.baseUrl, 'GET', '/wallet-sim/control/config', undefined, KEY);
    expect(before.status).toBe(200);
    const tries = [
      ['PUT', '/wallet-sim/control/config', { errorRate: 1 }],
      ['PUT', '/wallet-sim/control/config', { rateLimit: { requestsPerSecond: 0 } }],
      ['POST', '/wallet-sim/control/reset', undefined],
      ['POST', '/wallet-sim/control/wallets/alex%40wallet.test/password', { password: 'taken-over-1' }],
      [
        'POST',
        '/wallet-sim/control/wallets/alex%40wallet.test/passes',
        { event: { title: 'Planted', subtitle: 'x' }, venue: { name: 'x' }, visible_after_ms: 0 },
      ],
      [
        'POST',
        '/wallet-sim/control/wallets',
        { email: 'mine@wallet.test', password: 'p', first_name: 'A', last_name: 'B' },
      ],
      ['GET', '/wallet-sim/control/wallets', undefined],
    ] as const;
    // Twenty strangers at once, each without a key or with a wrong one.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const [method, url, body] = tries[i % tries.length]!;
        return call(stack.baseUrl, method, url, body, i % 2 === 0 ? undefined : WRONG_KEY);
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(401));
    expect(answers[0]!.body).toMatchObject({ error: 'invalid_control_key' });

    expect((await call(stack.baseUrl, 'GET', '/wallet-sim/control/config', undefined, KEY)).body).toEqual(before.body);
    const passes = await call(
      stack.baseUrl,
      'GET',
      '/wallet-sim/control/wallets/alex%40wallet.test/passes',
      undefined,
      KEY,
    );
    expect((passes.body!.passes as { event: { title: string } }[]).some((p) => p.event.title === 'Planted')).toBe(
      false,
    );
    const wallets = await call(stack.baseUrl, 'GET', '/wallet-sim/control/wallets', undefined, KEY);
    expect(JSON.stringify(wallets.body)).not.toContain('mine@wallet.test');
    // The demo wallet's password is still its own: the provider API (no key, as a real provider's) signs it in.
    const signIn = await call(stack.baseUrl, 'POST', '/wallet-sim/v1/sessions', {
      email: 'alex@wallet.test',
      password: 'Wallet123!',
    });
    expect(signIn.status).toBe(200);
  });

  it('does what it is told with the key', async () => {
    const set = await call(stack.baseUrl, 'PUT', '/wallet-sim/control/config', { latencyMs: { min: 1, max: 1 } }, KEY);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ latencyMs: { min: 1, max: 1 } });
    await call(stack.baseUrl, 'PUT', '/wallet-sim/control/config', { latencyMs: { min: 0, max: 0 } }, KEY);
  });
});

describe('a product with WALLET_PROVIDER_URL set', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ redis: false, env: { WALLET_PROVIDER_URL: 'http://127.0.0.1:9/provider' } });
  });
  afterAll(async () => stack?.close());

  it('mounts no simulator: neither its control API nor its provider API is there', async () => {
    expect(stack.config.mountWalletSim).toBe(false);
    for (const url of ['/wallet-sim/control/config', '/wallet-sim/health', '/wallet-sim/v1/passes']) {
      expect((await call(stack.baseUrl, 'GET', url)).status, url).toBe(404);
    }
    expect((await call(stack.baseUrl, 'PUT', '/wallet-sim/control/config', { errorRate: 1 })).status).toBe(404);
  });
});
