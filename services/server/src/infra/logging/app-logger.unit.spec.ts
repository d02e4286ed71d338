import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppLogger, currentRequestId, inRequest, requestIdFrom } from './app-logger.js';

function captured(work: () => void): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    work();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

describe('the product’s log lines', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes JSON lines naming the request, the role and the context', async () => {
    const logger = new AppLogger({ json: true, logLevels: ['log', 'warn', 'error'], role: 'api' });
    let lines: string[] = [];
    await new Promise<void>((resolve) =>
      inRequest('req-123', () => {
        // Also in what the request starts later on.
        setTimeout(() => {
          lines = captured(() => logger.log('linked an account', 'Accounts'));
          resolve();
        }, 1);
      }),
    );
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'log',
      message: 'linked an account',
      context: 'Accounts',
      role: 'api',
      requestId: 'req-123',
    });
    expect(typeof line.timestamp).toBe('number');
    const outside = JSON.parse(captured(() => logger.log('tick', 'Jobs'))[0]!) as Record<string, unknown>;
    expect(outside).not.toHaveProperty('requestId');
  });

  it('writes readable text with the request id after the context', () => {
    const logger = new AppLogger({ json: false, logLevels: ['log'], role: 'all' });
    const [colored] = captured(() => inRequest('abc-1', () => logger.log('hello', 'Http')));
    // eslint-disable-next-line no-control-regex -- the terminal's colour codes
    const line = colored!.replace(/\x1b\[[0-9;]*m/g, '');
    expect(line).toContain('[Http] (abc-1) ');
    expect(line).toContain('hello');
  });

  it('takes the proxy’s request id when it looks like one, and makes one otherwise', () => {
    expect(requestIdFrom('0f8a9c2e4b1d')).toBe('0f8a9c2e4b1d');
    for (const bad of [undefined, '', 'a b', 'x\nforged log line', 'ü', 'a'.repeat(65)]) {
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(currentRequestId()).toBeUndefined();
  });
});
