import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpWalletProvider } from './http-wallet-provider.js';
import { WalletUnavailableError } from './wallet-provider.port.js';

const pass = (id: string, urls: { logo_url?: unknown; save_url?: unknown }) => ({
  id,
  barcode: `BC-${id}`,
  event: { title: `Match ${id}`, subtitle: null, logo_url: urls.logo_url },
  venue: { name: 'Quayside' },
  seat: null,
  next_game: null,
  save_url: urls.save_url,
});

/** A provider answering what it is told to: the adapter must keep only what is safe to put in front of a browser. */
describe('the HTTP wallet provider adapter against a provider that answers anything', () => {
  let provider: FastifyInstance;
  let answer: unknown;
  let adapter: HttpWalletProvider;

  beforeAll(async () => {
    provider = Fastify();
    // A string is sent as it is (JSON written by hand: nesting deeper than a serializer would write).
    provider.get('/v1/passes', async (_request, reply) =>
      typeof answer === 'string' ? reply.type('application/json').send(answer) : answer,
    );
    await provider.listen({ port: 0, host: '127.0.0.1' });
    const address = provider.server.address();
    adapter = new HttpWalletProvider(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  });
  afterAll(async () => provider?.close());

  it('keeps http(s) logo and save URLs, and drops script, data and malformed ones', async () => {
    answer = {
      passes: [
        pass('ok', { logo_url: 'https://cdn.example/l.svg', save_url: 'https://wallet.example/save/ok' }),
        pass('js', { logo_url: 'javascript:alert(1)', save_url: 'JavaScript:alert(document.cookie)' }),
        pass('data', { logo_url: 'data:image/svg+xml,<svg onload=alert(1)>', save_url: 'data:text/html,<script>' }),
        pass('bad', { logo_url: 'not a url', save_url: '//wallet.example/x' }),
        pass('none', {}),
      ],
      next_cursor: null,
    };
    const { passes } = await adapter.listPasses('token', null);
    expect(passes.map((p) => [p.id, p.logoUrl, p.saveUrl])).toEqual([
      ['ok', 'https://cdn.example/l.svg', 'https://wallet.example/save/ok'],
      ['js', null, null],
      ['data', null, null],
      ['bad', null, null],
      ['none', null, null],
    ]);
  });

  it('takes a page of the wrong shape for the provider being down (nothing of it is kept)', async () => {
    for (const bad of [
      { passes: 'many' },
      { passes: [], next_cursor: 5 },
      [],
      'text',
      null,
      { passes: new Array(1001).fill(null) },
    ]) {
      answer = bad;
      await expect(adapter.listPasses('token', null)).rejects.toBeInstanceOf(WalletUnavailableError);
    }
  });

  it('cleans the text of every pass, and skips (reporting why) a pass that is still unusable; the rest come', async () => {
    const good = pass('good', {});
    const DEEP = '"deep-title"';
    const page = {
      passes: [
        {
          ...good,
          id: 'nul',
          event: { title: 'Final\u0000 \uD800\u202E day', subtitle: 'Line\none' },
          venue: { name: '\u202EQuayside' },
        },
        {
          ...good,
          id: 'huge',
          event: { title: 'T'.repeat(1_000_000), subtitle: 'S'.repeat(100_000) },
          seat: { section: 'x'.repeat(10_000), row: null, seat: '1' },
        },
        { ...good, id: 'far', next_game: { title: 'Far away', date: '+275760-09-13T00:00:00.000Z' } },
        { ...good, id: 'old', next_game: { title: 'Long ago', date: '1899-01-01T00:00:00Z' } },
        { ...good, id: 'notadate', next_game: { title: 'When', date: 'tomorrow' } },
        { ...good, id: 5 },
        { ...good, id: 'bad\u0000id' },
        { ...good, id: 'x'.repeat(201) },
        { ...good, id: 'nested', event: { title: DEEP } },
        { ...good, id: 'venue', venue: 'Quayside' },
        { ...good, id: 'notitle', event: { title: '\u202E\u0000 ' } },
        { ...good, id: 'barcode', barcode: 'B'.repeat(501) },
        'a pass?',
        null,
        [good],
        good,
      ],
      next_cursor: null,
    };
    // The title of 'nested' is 100,000 arrays deep.
    answer = JSON.stringify(page).replace(JSON.stringify(DEEP), `${'['.repeat(100_000)}1${']'.repeat(100_000)}`);
    const read = await adapter.listPasses('token', null);
    expect(read.passes.map((p) => p.id)).toEqual(['nul', 'huge', 'good']);
    const [nul, huge] = read.passes;
    expect(nul).toMatchObject({ title: 'Final \uFFFD day', subtitle: 'Line one', venueName: 'Quayside' });
    expect(huge!.title).toHaveLength(200);
    expect(huge!.subtitle).toHaveLength(300);
    expect(huge!.section).toHaveLength(100);
    expect(read.skipped).toEqual([
      { passId: 'far', reason: 'next_game.date: not a date between 2000 and 2100' },
      { passId: 'old', reason: 'next_game.date: not a date between 2000 and 2100' },
      { passId: 'notadate', reason: 'next_game.date: not a date between 2000 and 2100' },
      { passId: null, reason: 'id: Invalid input: expected string, received number' },
      { passId: 'badid', reason: 'id: holds characters an id cannot' },
      { passId: 'x'.repeat(200), reason: 'id: longer than 200 characters' },
      { passId: 'nested', reason: 'event.title: Invalid input: expected string, received array' },
      { passId: 'venue', reason: 'venue: Invalid input: expected object, received string' },
      { passId: 'notitle', reason: 'event.title: empty' },
      { passId: 'barcode', reason: 'barcode: longer than 500 characters' },
      { passId: null, reason: 'pass: not an object' },
      { passId: null, reason: 'pass: not an object' },
      { passId: null, reason: 'pass: not an object' },
    ]);
    // Nothing the provider sent is refused by PostgreSQL's jsonb (no NUL, no lone surrogate) or reads reversed.
    const text = JSON.stringify(read);
    expect(text).not.toMatch(/\\u0000|[\u202A-\u202E\u2066-\u2069]/);
    expect(() => encodeURIComponent(text)).not.toThrow();
  });

  it('refuses an answer larger than it reads (8 MiB) as the provider failing', async () => {
    answer = { passes: [pass('big', {})], next_cursor: null, padding: 'p'.repeat(9 * 1024 * 1024) };
    await expect(adapter.listPasses('token', null)).rejects.toBeInstanceOf(WalletUnavailableError);
  });
});
