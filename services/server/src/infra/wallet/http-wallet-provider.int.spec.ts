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
    provider.get('/v1/passes', async () => answer);
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

  it('takes an answer of the wrong shape for the provider being down (nothing of it is kept)', async () => {
    answer = { passes: [{ id: 5 }], next_cursor: null };
    await expect(adapter.listPasses('token', null)).rejects.toBeInstanceOf(WalletUnavailableError);
    answer = { passes: 'many' };
    await expect(adapter.listPasses('token', null)).rejects.toBeInstanceOf(WalletUnavailableError);
  });
});
