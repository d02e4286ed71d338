import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { ConsoleLogger, type LogLevel } from '@nestjs/common';

const requests = new AsyncLocalStorage<{ requestId: string; apiKey?: { id: string; name: string } }>();

/** Runs `work` as part of a request: every line logged meanwhile (also in what it starts) names the request. */
export function inRequest(requestId: string, work: () => void): void {
  requests.run({ requestId }, work);
}

/**
 * Names the API key the current request was made with: what it appends says so (the audit log shows the key's name).
 */
export function markApiKeyRequest(id: string, name: string): void {
  const store = requests.getStore();
  if (store) store.apiKey = { id, name };
}

/** The API key the current request was made with, if any. */
export function currentApiKey(): { id: string; name: string } | undefined {
  return requests.getStore()?.apiKey;
}

/** The request the current code runs for, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore()?.requestId;
}

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * A request's id: the one the proxy in front gave it (`X-Request-Id`, nginx's `$request_id`) when it looks like one,
 * so one id follows the request through both; a new one otherwise (a client cannot put anything else in the logs).
 */
export function requestIdFrom(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && VALID_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Nest's start-up chatter: a line per module initialised and per route mapped (a hundred of them). Written at LOG_LEVEL
 * debug or verbose only: a start says what a person needs in a screenful, and the routes are in the API document.
 */
const START_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/**
 * The product's log lines: Nest's own, as JSON objects one per line (LOG_FORMAT=json: production, for a log
 * collector) or readable text (development), each with the id of the request it was written for.
 */
export class AppLogger extends ConsoleLogger {
  constructor(options: { json: boolean; logLevels: LogLevel[]; role: string }) {
    super({ json: options.json, logLevels: options.logLevels, colors: options.json ? false : undefined });
    this.role = options.role;
    this.chatty = options.logLevels.includes('debug');
  }

  private readonly role: string;
  private readonly chatty: boolean;

  override log(message: unknown, ...rest: unknown[]): void {
    // Nest's own loggers pass their context last.
    if (!this.chatty && START_CHATTER.has(String(rest.at(-1)))) return;
    super.log(message, ...rest);
  }

  protected override getJsonLogObject(...args: Parameters<ConsoleLogger['getJsonLogObject']>) {
    const line = super.getJsonLogObject(...args);
    const requestId = currentRequestId();
    return { ...line, role: this.role, ...(requestId ? { requestId } : {}) };
  }

  protected override formatContext(context: string): string {
    const requestId = currentRequestId();
    return super.formatContext(context) + (requestId ? `(${requestId}) ` : '');
  }
}
