import { randomUUID } from 'node:crypto';
import type { Account, BatchLinkResponse, User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_GATEWAY, type PaymentGateway } from '../payments/payment-gateway.port.js';
import { startTestStack, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { type SimControl, simControl, startSim, WALLET_PASSWORD } from '../../testing/wallet-fixture.js';
import { testEnv } from '../../testing/test-database.js';

const TOPUP_MESSAGE = /^Too many payment attempts\. Please try again in (1 minute|\d+ minutes)\.$/;
const WALLET_MESSAGE = /^Too many wallet sign-ins\. Please try again in (1 minute|\d+ minutes)\.$/;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; code?: string };
  retryAfter: string | null;
}

/** A signed-in caller speaking from `ip` (the stacks trust X-Forwarded-For), answering the Retry-After header too. */
class Caller {
  private cookie = '';
  constructor(
    private readonly baseUrl: string,
    private readonly ip: string,
  ) {}

  async signIn(email: string, password: string) {
    const res = await this.call('POST', '/v1/auth', { email, password, token: null });
    expect(res.status).toBe(200);
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        'x-forwarded-for': this.ip,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      if (pair?.startsWith('seatlink_session=')) this.cookie = pair;
    }
    const text = await res.text();
    const parsed = (text ? JSON.parse(text) : {}) as Answer['body'];
    return { status: res.status, body: parsed, retryAfter: res.headers.get('retry-after') };
  }
}

function expectLimited(res: Answer, message: RegExp) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe('RATE_LIMITED');
  expect(res.body.message).toMatch(message);
  expect(res.retryAfter).toMatch(/^\d+$/);
  expect(Number(res.retryAfter)).toBeGreaterThan(0);
  expect(Number(res.retryAfter)).toBeLessThanOrEqual(15 * 60);
}

const billing = {
  email: 'payer@example.com',
  name: 'Ada Lovelace',
  address: { line1: '1 High Street', line2: null, city: 'London', state: null, postal_code: 'N1 9GU', country: 'GB' },
  phone: null,
};
const topupBody = (paymentId: string, amount = 10) => ({
  payment_id: paymentId,
  amount,
  email: 'payer@example.com',
  billing_info: billing,
});
const DECLINED = 'pm_card_chargeDeclined';

// The same limits, counted in Redis (shared by every API process) and in the memory of a process without Redis.
describe.each([...(testEnv.redisUrl ? [{ store: 'Redis', redis: true }] : []), { store: 'memory', redis: false }])(
  'top-ups and wallet sign-ins per user and per IP, counted in $store',
  ({ redis }) => {
    let stack: TestStack;
    let sim: WalletSimApp;
    let control: SimControl;
    /** How many payments reached the card gateway (the real test gateway, counted on its way in). */
    let charges = 0;
    let n = 0;

    beforeAll(async () => {
      const started = await startSim();
      sim = started.sim;
      control = simControl(started.url);
      stack = await startTestStack({
        redis,
        env: {
          TRUST_PROXY: 'true',
          WALLET_PROVIDER_URL: started.url,
          THROTTLE_TOPUP_USER: '3',
          THROTTLE_TOPUP_IP: '5',
          THROTTLE_WALLET_SIGNIN_USER: '5',
          THROTTLE_WALLET_SIGNIN_IP: '8',
        },
      });
      const gateway = stack.app.get<PaymentGateway>(PAYMENT_GATEWAY);
      const payByCard = gateway.payByCard.bind(gateway);
      gateway.payByCard = (input) => {
        charges++;
        return payByCard(input);
      };
    });
    afterAll(async () => {
      await stack?.close();
      await sim?.close();
    });

    /** A new user signed in from an address of its own (unless one is given). */
    const newCaller = async (ip = `198.51.${redis ? 100 : 101}.${++n}`) => {
      const user = await createVerifiedUser(stack.app);
      const caller = new Caller(stack.baseUrl, ip);
      await caller.signIn(user.email, user.password);
      return caller;
    };
    const balance = async (caller: Caller) => ((await caller.call('GET', '/v1/me')).body as unknown as User).balance;
    const providerSignIns = async () =>
      ((await control('GET', '/stats')) as { requests: { by_route: Record<string, number> } }).requests.by_route[
        'POST /v1/sessions'
      ] ?? 0;
    const newWallet = async (label: string) => {
      const email = `${label}-${randomUUID().slice(0, 8)}@wallet.test`;
      await control('POST', '/wallets', { email, password: WALLET_PASSWORD, first_name: 'Wally', last_name: 'Tester' });
      return email;
    };

    describe('card top-ups', () => {
      it('lets 3 of 40 parallel declined top-ups from one user reach the card gateway; the rest are 429', async () => {
        const caller = await newCaller();
        const before = charges;
        const answers = await Promise.all(
          Array.from({ length: 40 }, () => caller.call('POST', '/v1/topup', topupBody(DECLINED))),
        );
        expect(answers.filter((a) => a.status === 402)).toHaveLength(3);
        const refused = answers.filter((a) => a.status === 429);
        expect(refused).toHaveLength(37);
        for (const a of refused) expectLimited(a, TOPUP_MESSAGE);
        expect(charges - before).toBe(3);
        // Past the limit even a good card is refused before it is charged.
        expectLimited(await caller.call('POST', '/v1/topup', topupBody('pm_card_visa')), TOPUP_MESSAGE);
        expect(charges - before).toBe(3);
        expect(await balance(caller)).toBe(0);
      });

      it('gives a payment that succeeded its attempt back: 6 good top-ups pass a limit of 3, then 3 declines spend it', async () => {
        const caller = await newCaller();
        for (let i = 0; i < 6; i++)
          expect((await caller.call('POST', '/v1/topup', topupBody('pm_card_visa'))).status).toBe(200);
        expect(await balance(caller)).toBe(60);
        for (let i = 0; i < 3; i++)
          expect((await caller.call('POST', '/v1/topup', topupBody(DECLINED))).status).toBe(402);
        expectLimited(await caller.call('POST', '/v1/topup', topupBody('pm_card_visa')), TOPUP_MESSAGE);
        expect(await balance(caller)).toBe(60);
      });

      it('counts a payment waiting for 3-D Secure and every completion call', async () => {
        const caller = await newCaller();
        const first = await caller.call('POST', '/v1/topup', topupBody('pm_card_threeDSecure2Required'));
        expect(first.status).toBe(200);
        expect(first.body.payment_intent_status).toBe('requires_action');
        // Completing a payment that is not done, or one that does not exist, is an attempt too.
        const id = first.body.payment_intent_id as string;
        expect((await caller.call('POST', `/v1/topup/${id}/complete`)).body.success).toBe(false);
        expect((await caller.call('POST', '/v1/topup/pi_doesnotexist0000/complete')).status).toBe(404);
        expectLimited(await caller.call('POST', `/v1/topup/${id}/complete`), TOPUP_MESSAGE);
      });

      it('counts declines per IP across users (5), and a refused attempt takes nothing from the IP', async () => {
        const ip = `203.0.${redis ? 113 : 114}.7`;
        const a = await newCaller(ip);
        const b = await newCaller(ip);
        for (let i = 0; i < 3; i++) expect((await a.call('POST', '/v1/topup', topupBody(DECLINED))).status).toBe(402);
        // a's own limit (3) refuses it; that refusal is not counted against the address.
        expectLimited(await a.call('POST', '/v1/topup', topupBody(DECLINED)), TOPUP_MESSAGE);
        expectLimited(await a.call('POST', '/v1/topup', topupBody(DECLINED)), TOPUP_MESSAGE);
        for (let i = 0; i < 2; i++) expect((await b.call('POST', '/v1/topup', topupBody(DECLINED))).status).toBe(402);
        expectLimited(await b.call('POST', '/v1/topup', topupBody(DECLINED)), TOPUP_MESSAGE);
        // The same user from another address still has its own allowance left.
        const elsewhere = await newCaller();
        expect((await elsewhere.call('POST', '/v1/topup', topupBody(DECLINED))).status).toBe(402);
      });

      it('counts a malformed top-up as an attempt, answered 400 with a message', async () => {
        const caller = await newCaller();
        for (const body of [
          {},
          { ...topupBody(DECLINED), amount: 1e308 },
          { ...topupBody(DECLINED), email: 'a\u0000b' },
        ]) {
          const res = await caller.call('POST', '/v1/topup', body);
          expect(res.status).toBe(400);
          expect(typeof res.body.message).toBe('string');
        }
        expectLimited(await caller.call('POST', '/v1/topup', topupBody('pm_card_visa')), TOPUP_MESSAGE);
      });
    });

    describe('wallet sign-ins', () => {
      it('lets 5 of 30 parallel wallet sign-ins with wrong passwords reach the provider; the rest are 429', async () => {
        const caller = await newCaller();
        const email = await newWallet('burst');
        const before = await providerSignIns();
        const answers = await Promise.all(
          Array.from({ length: 30 }, () => caller.call('POST', '/v1/accounts', { email, password: 'Wrong!pass1' })),
        );
        expect(answers.filter((a) => a.body.code === 'WALLET_AUTH_FAILED')).toHaveLength(5);
        const refused = answers.filter((a) => a.status === 429);
        expect(refused).toHaveLength(25);
        for (const a of refused) expectLimited(a, WALLET_MESSAGE);
        expect((await providerSignIns()) - before).toBe(5);
        // Nothing is linked past the limit, even with the right password.
        expectLimited(await caller.call('POST', '/v1/accounts', { email, password: WALLET_PASSWORD }), WALLET_MESSAGE);
        expect(((await caller.call('GET', '/v1/accounts')).body.accounts as Account[]).length).toBe(0);
      });

      it('counts each account of a batch: a batch that does not fit is refused whole, and takes nothing', async () => {
        const caller = await newCaller();
        const before = await providerSignIns();
        const wrong = async () => ({ email: await newWallet('batch'), password: 'Wrong!pass1' });
        const big = await Promise.all(Array.from({ length: 6 }, wrong));
        // 6 accounts do not fit a limit of 5: none is tried.
        expectLimited(await caller.call('POST', '/v1/accounts/batch', { accounts: big }), WALLET_MESSAGE);
        expect((await providerSignIns()) - before).toBe(0);
        const four = await caller.call('POST', '/v1/accounts/batch', { accounts: big.slice(0, 4) });
        expect(four.status).toBe(200);
        expect((four.body as unknown as BatchLinkResponse).failed).toBe(4);
        // One left: a batch of two is refused whole, a single sign-in still goes.
        expectLimited(await caller.call('POST', '/v1/accounts/batch', { accounts: big.slice(4) }), WALLET_MESSAGE);
        expect((await caller.call('POST', '/v1/accounts', big[4])).body.code).toBe('WALLET_AUTH_FAILED');
        expectLimited(await caller.call('POST', '/v1/accounts', big[5]), WALLET_MESSAGE);
        expect((await providerSignIns()) - before).toBe(5);
      });

      it('gives back the sign-ins that linked: 7 good wallets link past a limit of 5', async () => {
        const caller = await newCaller();
        const good = await Promise.all(
          Array.from({ length: 7 }, async () => ({ email: await newWallet('good'), password: WALLET_PASSWORD })),
        );
        const batch = await caller.call('POST', '/v1/accounts/batch', { accounts: good.slice(0, 4) });
        expect((batch.body as unknown as BatchLinkResponse).linked).toBe(4);
        for (const account of good.slice(4))
          expect((await caller.call('POST', '/v1/accounts', account)).status).toBe(201);
        expect(((await caller.call('GET', '/v1/accounts')).body.accounts as Account[]).length).toBe(7);
      });

      it('keeps counting good re-authentications: they link nothing new, and the provider pace is everyone’s', async () => {
        const caller = await newCaller(`192.0.${redis ? 4 : 5}.77`);
        const email = await newWallet('reauth-good');
        const linked = await caller.call('POST', '/v1/accounts', { email, password: WALLET_PASSWORD });
        expect(linked.status).toBe(201);
        const id = (linked.body as unknown as Account).id;
        for (let i = 0; i < 5; i++) {
          const res = await caller.call('POST', `/v1/accounts/${id}/reauth`, { email, password: WALLET_PASSWORD });
          expect(res.status).toBe(200);
        }
        expectLimited(
          await caller.call('POST', `/v1/accounts/${id}/reauth`, { email, password: WALLET_PASSWORD }),
          WALLET_MESSAGE,
        );
      });

      it('counts re-authentication, and counts per IP across users (8)', async () => {
        const ip = `192.0.${redis ? 2 : 3}.77`;
        const a = await newCaller(ip);
        const email = await newWallet('reauth');
        const linked = await a.call('POST', '/v1/accounts', { email, password: WALLET_PASSWORD });
        expect(linked.status).toBe(201);
        const id = (linked.body as unknown as Account).id;
        for (let i = 0; i < 5; i++) {
          const res = await a.call('POST', `/v1/accounts/${id}/reauth`, { email, password: 'Wrong!pass1' });
          expect(res.body.code).toBe('WALLET_AUTH_FAILED');
        }
        expectLimited(
          await a.call('POST', `/v1/accounts/${id}/reauth`, { email, password: WALLET_PASSWORD }),
          WALLET_MESSAGE,
        );
        // Another user from the same address has 3 left of the address's 8.
        const b = await newCaller(ip);
        const other = await newWallet('reauth-b');
        for (let i = 0; i < 3; i++) {
          expect((await b.call('POST', '/v1/accounts', { email: other, password: 'Wrong!pass1' })).status).toBe(400);
        }
        expectLimited(await b.call('POST', '/v1/accounts', { email: other, password: 'Wrong!pass1' }), WALLET_MESSAGE);
      });

      it('answers bad bytes in a batch with 400 and a message, counted, nothing linked', async () => {
        const caller = await newCaller();
        const email = await newWallet('bytes');
        for (const password of ['a\u0000b', '\ud800', 'x'.repeat(10_000)]) {
          const res = await caller.call('POST', '/v1/accounts/batch', { accounts: [{ email, password }] });
          expect(res.status).toBe(400);
          expect(typeof res.body.message).toBe('string');
        }
        const long = await caller.call('POST', '/v1/accounts/batch', {
          accounts: Array.from({ length: 500 }, () => ({ email, password: 'x' })),
        });
        // Counted as a full batch (20) before it is read: more than is left.
        expectLimited(long, WALLET_MESSAGE);
        expect(((await caller.call('GET', '/v1/accounts')).body.accounts as Account[]).length).toBe(0);
      });
    });
  },
);
