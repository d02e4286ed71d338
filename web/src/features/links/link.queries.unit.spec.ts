import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicLink } from '@seatlink/contracts';
import { createQueryClient } from '../../lib/create-query-client';
import { stubFetch } from '../../testing/fetch-stub';
import { claim, linkKey, linkQuery, readLink, type LinkView } from './link.queries';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const CODE = 'AbCdEfGhIjKlMnOpQrStUv';
const aLink = (overrides: Partial<PublicLink> = {}): PublicLink => ({
  state: 'active',
  pin: 'none',
  expires_at: null,
  ticket: {
    title: 'Harbourside Athletic',
    subtitle: null,
    logo: null,
    venue_name: 'Quayside Stadium',
    seat_info: 'Section 112, Row F, Seat 7',
    next_game: null,
    next_game_date: null,
  },
  ...overrides,
});

describe('the recipient page (/l/{code})', () => {
  it('reads the link and its state; an address that is no link is not asked for', async () => {
    const calls = stubFetch({ status: 200, body: aLink({ state: 'expired' }) });
    await expect(readLink('not-a-code')).resolves.toEqual({ link: null, state: 'not_found' });
    const view = await readLink(CODE);
    expect(view.state).toBe('expired');
    expect(view.link?.ticket.title).toBe('Harbourside Athletic');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET /v1/links/${CODE}`]);
  });

  it('is not found on 404 or 400, and fails (to try again) without an answer or on a server error', async () => {
    stubFetch({ status: 404 }, { status: 400 }, { status: 502 }, new TypeError('offline'));
    await expect(readLink(CODE)).resolves.toEqual({ link: null, state: 'not_found' });
    await expect(readLink(CODE)).resolves.toEqual({ link: null, state: 'not_found' });
    await expect(readLink(CODE)).rejects.toMatchObject({ status: 502 });
    await expect(readLink(CODE)).rejects.toMatchObject({ status: 0 });
  });

  it('claims with one key until a definite answer, so pressing again after a lost answer counts no second click', async () => {
    const client = createQueryClient();
    vi.useFakeTimers();
    const calls = stubFetch(
      new TypeError('offline'),
      new TypeError('offline'),
      new TypeError('offline'),
      { status: 200, body: { wallet_url: 'https://wallet.test/save/1' } },
      { status: 200, body: { wallet_url: 'https://wallet.test/save/2' } },
    );
    const lost = claim(client, CODE);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(lost).resolves.toEqual({
      walletUrl: null,
      claimError: 'The ticket could not be added just now. Check your connection and try again.',
    });
    await expect(claim(client, CODE)).resolves.toEqual({ walletUrl: 'https://wallet.test/save/1' });
    await expect(claim(client, CODE)).resolves.toEqual({ walletUrl: 'https://wallet.test/save/2' });
    const keys = calls.map((c) => c.headers['Idempotency-Key']);
    expect(new Set(keys.slice(0, 4)).size).toBe(1);
    expect(keys[4]).not.toBe(keys[0]);
  });

  it('turns the page into the state a refused claim names; a refused client reads why', async () => {
    const client = createQueryClient();
    stubFetch({ status: 200, body: aLink() });
    await client.fetchQuery(linkQuery(CODE));
    stubFetch(
      { status: 410, body: { message: 'This link reached its limit', code: 'LIMIT_REACHED' } },
      { status: 403, body: {} },
    );
    await expect(claim(client, CODE)).resolves.toEqual({ walletUrl: null, claimError: null });
    expect(client.getQueryData<LinkView>(linkKey(CODE))).toMatchObject({
      state: 'limit_reached',
      link: { ticket: { title: 'Harbourside Athletic' } },
    });
    await expect(claim(client, CODE)).resolves.toEqual({
      walletUrl: null,
      claimError: 'Links are claimed by people, not by automated clients',
    });
  });
});
