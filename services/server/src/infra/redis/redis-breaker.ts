import type { Command } from 'ioredis';
import CircuitBreaker from 'opossum';

/** Where a breaker stands: calls go to Redis (closed), fail at once (open), or wait on a probe's answer (half-open). */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** A call a breaker failed at once, unsent: its client's Redis did not answer in time a moment ago. */
export class RedisBreakerOpenError extends Error {
  constructor(role: string) {
    super(`Redis (${role}) did not answer in time a moment ago: the call was not sent`);
    this.name = 'RedisBreakerOpenError';
  }
}

/**
 * Whether a failure says Redis is hung: a command past its timeout. Only that opens a breaker. A refused or lost
 * connection already fails every call at once (no offline queue), so counting it would only keep the calls failing
 * for a moment after Redis is back (or after a start, before the first connection); a command error is Redis
 * answering.
 */
export function isRedisTimeout(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('Command timed out');
}

/** What a breaker needs of its client: ioredis's one way out for every command, and PING for its probe. */
export interface BreakerClient {
  /** A Redis Cluster's client takes a third: the node a pipeline goes to. */
  sendCommand(command: Command, stream?: never, node?: never): unknown;
  ping(): Promise<unknown>;
}

export interface RedisBreakerOptions {
  /** Names the client in the log and the metrics. */
  role: string;
  /** How long it stays open before a probe asks Redis again (REDIS_BREAKER_OPEN_MS). */
  openMs: number;
  /** The client's command timeout, for the log. */
  timeoutMs: number;
  logger: { warn(message: string): void; log(message: string): void };
  /** Told when it opens (not again while it stays open). */
  onOpen?: () => void;
  /** Told of each call failed at once. */
  onReject?: () => void;
}

/**
 * A circuit breaker (opossum) in front of one ioredis client: every command the client sends passes through it,
 * pipelines and scripts included (they all leave through `sendCommand`). A command that times out opens it: for
 * `openMs` every command fails at once with RedisBreakerOpenError, which the callers already take for Redis away
 * (isRedisUnavailableError: throttles count in memory, a job add answers 503), instead of each waiting out the
 * timeout on a hung Redis. Then one probe (PING) is sent by the breaker itself — never a request's command, which
 * would wait on it — and its answer closes the breaker; its timeout opens it again. The opening and the closing are
 * logged once each.
 */
export class RedisBreaker {
  private readonly circuit: CircuitBreaker<[() => Promise<unknown>], unknown>;
  /** When it opened, while it is open or half-open. */
  private openedAt: number | null = null;

  constructor(
    private readonly client: BreakerClient,
    private readonly options: RedisBreakerOptions,
  ) {
    this.circuit = new CircuitBreaker((send: () => Promise<unknown>) => send(), {
      name: options.role,
      // The client bounds each command itself (its command timeout); the breaker only counts.
      timeout: false,
      resetTimeout: options.openMs,
      // One timeout opens it, however many calls went through before.
      errorThresholdPercentage: 0,
      errorFilter: (err: Error) => !isRedisTimeout(err),
      rollingPercentilesEnabled: false,
      enableSnapshots: false,
    });
    this.circuit.on('open', () => this.opened());
    this.circuit.on('close', () => this.closed());
    // Half-open lets one call through: the probe takes it at once, so no request does.
    this.circuit.on('halfOpen', () => void this.client.ping().catch(() => undefined));
    this.circuit.on('reject', () => options.onReject?.());
    const send = client.sendCommand.bind(client);
    client.sendCommand = (command: Command, stream?: never, node?: never) => {
      // ioredis answers the command's promise (or one that traces it); the breaker calls `send` at once, or never,
      // with every argument it was given (a cluster's pipeline names its node in the third).
      let sent: Promise<unknown> | undefined;
      this.circuit
        .fire(() => (sent = send(command, stream, node) as Promise<unknown>))
        .catch((err: Error) => {
          // Unsent: the command answers the refusal itself (a pipeline's other commands are refused with it).
          if (CircuitBreaker.isOurError(err)) command.reject(new RedisBreakerOpenError(options.role));
        });
      return sent ?? command.promise;
    };
  }

  get role(): string {
    return this.options.role;
  }

  get state(): BreakerState {
    if (this.circuit.opened) return 'open';
    return this.circuit.halfOpen ? 'half-open' : 'closed';
  }

  /** Stops its timers (the client is closing). */
  shutdown() {
    this.circuit.shutdown();
  }

  private opened() {
    // A probe that timed out opens it again: the same outage, not a new one.
    if (this.openedAt !== null) return;
    this.openedAt = Date.now();
    this.options.onOpen?.();
    this.options.logger.warn(
      `Redis (${this.options.role}) did not answer within ${this.options.timeoutMs} ms: its calls fail at once, ` +
        `as while Redis is away, until Redis answers a probe (one every ${this.options.openMs} ms)`,
    );
  }

  private closed() {
    if (this.openedAt === null) return;
    const seconds = ((Date.now() - this.openedAt) / 1000).toFixed(1);
    this.openedAt = null;
    this.options.logger.log(`Redis (${this.options.role}) answers again: its calls go to Redis (after ${seconds} s)`);
  }
}
