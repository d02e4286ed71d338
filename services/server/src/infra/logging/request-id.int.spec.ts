import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../../testing/test-app.js';

describe('request ids', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);
  afterAll(async () => stack?.close());

  it('answers every request with its id: the proxy’s when valid, a new one otherwise', async () => {
    const given = await fetch(`${stack.baseUrl}/health`, { headers: { 'x-request-id': 'nginx-0123abcd' } });
    expect(given.headers.get('x-request-id')).toBe('nginx-0123abcd');
    const forged = await fetch(`${stack.baseUrl}/v1/me`, { headers: { 'x-request-id': 'a b <script>' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const a = (await fetch(`${stack.baseUrl}/health`)).headers.get('x-request-id');
    const b = (await fetch(`${stack.baseUrl}/health`)).headers.get('x-request-id');
    expect(a).not.toBe(b);
  });
});
