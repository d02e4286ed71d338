import { Command } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isRedisUnavailableError } from './redis-client.js';
import { type BreakerClient, RedisBreaker, RedisBreakerOpenError } from './redis-breaker.js';

/**
 * A client as ioredis's commands see it, answering as the test says: a reply, a command error, the timeout ioredis
 * gives a command a hung Redis never answers, or nothing yet. Records what reached it.
 */
class ScriptedClient implements BreakerClient {
  answer: 'reply' | 'error' | 'timeout' | 'hang' = 'reply';
  readonly sent: string[] = [];
  /** What came with each command beside it (a pipeline's stream, a cluster's node). */
  readonly extras: unknown[][] = [];
  /** The last command left unanswered ('hang'), for the test to answer. */
  hanging: Command | null = null;

  sendCommand(command: Command, ...extras: unknown[]): unknown {
    this.sent.push(command.name);
    this.extras.push(extras);
    if (this.answer === 'hang') this.hanging = command;
    else if (this.answer === 'reply') command.resolve('OK');
    else command.reject(new Error(this.answer === 'timeout' ? 'Command timed out' : 'WRONGTYPE Operation'));
    return command.promise;
  }

  /** As ioredis's: one more command through `sendCommand` (the breaker's, once it is in front). */
  ping(): Promise<unknown> {
    return this.sendCommand(new Command('ping')) as Promise<unknown>;
  }

  call(name: string): Promise<unknown> {
    return this.sendCommand(new Command(name, ['key'])) as Promise<unknown>;
  }
}

const OPEN_MS = 2000;

describe('RedisBreaker', () => {
  let client: ScriptedClient;
  let breaker: RedisBreaker;
  let lines: string[];

  beforeEach(() => {
    vi.useFakeTimers();
    client = new ScriptedClient();
    lines = [];
    breaker = new RedisBreaker(client, {
      role: 'throttle',
      openMs: OPEN_MS,
      timeoutMs: 1000,
      logger: { warn: (m) => lines.push(`warn: ${m}`), log: (m) => lines.push(`log: ${m}`) },
    });
  });
  afterEach(() => {
    breaker.shutdown();
    vi.useRealTimers();
  });

  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('lets commands through while Redis answers, command errors included', async () => {
    await expect(client.call('get')).resolves.toBe('OK');
    client.answer = 'error';
    await expect(client.call('incr')).rejects.toThrow('WRONGTYPE');
    expect(breaker.state).toBe('closed');
    expect(client.sent).toEqual(['get', 'incr']);
    expect(lines).toEqual([]);
  });

  it('opens at a timeout: the next calls fail at once, unsent, as Redis unavailable', async () => {
    client.answer = 'timeout';
    await expect(client.call('get')).rejects.toThrow('Command timed out');
    expect(breaker.state).toBe('open');
    client.answer = 'reply';
    const refused = await client.call('get').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RedisBreakerOpenError);
    expect(isRedisUnavailableError(refused)).toBe(true);
    expect(client.sent).toEqual(['get']);
    expect(lines).toEqual([
      'warn: Redis (throttle) did not answer within 1000 ms: its calls fail at once, as while Redis is away, ' +
        'until Redis answers a probe (one every 2000 ms)',
    ]);
  });

  it('probes Redis itself after the open time; while the probe waits, calls still fail at once', async () => {
    client.answer = 'timeout';
    await client.call('get').catch(() => undefined);
    client.answer = 'hang';
    vi.advanceTimersByTime(OPEN_MS - 1);
    expect(breaker.state).toBe('open');
    vi.advanceTimersByTime(1);
    expect(breaker.state).toBe('half-open');
    expect(client.sent).toEqual(['get', 'ping']);
    await expect(client.call('get')).rejects.toBeInstanceOf(RedisBreakerOpenError);
    expect(client.sent).toEqual(['get', 'ping']);
    client.hanging!.resolve('PONG');
    await settle();
    expect(breaker.state).toBe('closed');
    client.answer = 'reply';
    await expect(client.call('get')).resolves.toBe('OK');
    expect(client.sent).toEqual(['get', 'ping', 'get']);
  });

  it('stays open while the probes time out, and logs the opening and the closing once each', async () => {
    client.answer = 'timeout';
    await client.call('get').catch(() => undefined);
    for (let probe = 0; probe < 3; probe++) {
      vi.advanceTimersByTime(OPEN_MS);
      await settle();
      expect(breaker.state).toBe('open');
    }
    expect(client.sent).toEqual(['get', 'ping', 'ping', 'ping']);
    client.answer = 'reply';
    vi.advanceTimersByTime(OPEN_MS);
    await settle();
    expect(breaker.state).toBe('closed');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^warn: Redis \(throttle\) did not answer within 1000 ms/);
    expect(lines[1]).toBe('log: Redis (throttle) answers again: its calls go to Redis (after 8.0 s)');
  });

  it('refuses every command of a pipeline together while open (none is left half-written)', async () => {
    client.answer = 'timeout';
    await client.call('get').catch(() => undefined);
    const commands = [new Command('multi'), new Command('get', ['k']), new Command('exec')];
    for (const command of commands) void client.sendCommand(command);
    const outcomes = await Promise.allSettled(commands.map((c) => c.promise));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(client.sent).toEqual(['get']);
  });
  it("passes on everything sent with a command: a cluster's pipeline names its node in the third argument", async () => {
    const stream = { isPipeline: true } as never;
    const node = { slot: 7, redis: {} } as never;
    await client.sendCommand(new Command('get', ['key']), stream, node);
    expect(client.extras.at(-1)).toEqual([stream, node]);
  });
  it("takes a Redis Cluster's own ways of being away for Redis being away (a 503, not a 500)", () => {
    for (const message of [
      "Cluster isn't ready and enableOfflineQueue options is false",
      'Too many Cluster redirections. Last error: Error: Connection is closed.',
      'CLUSTERDOWN The cluster is down',
    ]) {
      expect(isRedisUnavailableError(new Error(message)), message).toBe(true);
    }
    expect(isRedisUnavailableError(new Error('WRONGTYPE Operation'))).toBe(false);
  });
});
