import { createHmac } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { FORBIDDEN_CHARACTERS, WEBHOOK_SIGNATURE_HEADER } from '@seatlink/contracts';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import ipaddr from 'ipaddr.js';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { clock } from '../../shared/clock.js';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: Stripe's scheme, so its verifiers check it as they are. With
 * several secrets (a rolled secret's grace, docs/reference.md "Webhooks"), one `v1=` each, the newest first:
 * `t=…,v1=<new>,v1=<old>`; a verifier accepts the delivery when any of them matches.
 */
export function webhookSignature(secrets: string | readonly string[], body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const signatures = (typeof secrets === 'string' ? [secrets] : secrets).map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex')}`,
  );
  return [`t=${t}`, ...signatures].join(',');
}

/** One try's outcome: `status` the HTTP status (null when nothing answered), `error` why it failed (null: it did). */
export interface SendOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

/** What the log keeps of an answer's or a failure's text at most. */
const ERROR_MAX = 300;
/** Ranges refused although unicast: IPv4-compatible and NAT64 IPv6 addresses. */
const DENIED = ['::/96', '64:ff9b::/96', '64:ff9b:1::/48'];
/** Of an answer's body, at most this much is read (and dropped), for at most this long. */
const ANSWER_READ_MAX = 64 * 1024;
const ANSWER_READ_MS = 1000;
/** Control and direction characters: an endpoint's words go into the log as plain text. */
const UNPRINTABLE = new RegExp(FORBIDDEN_CHARACTERS.source, 'gu');

/**
 * Sends a delivery: an HTTPS POST of the JSON body, signed, within WEBHOOK_TIMEOUT_MS, redirects not followed (a 3xx
 * is a failure). Connections go only to public addresses: the address a name resolves to is checked as the socket
 * connects (request-filtering-agent), so a name that resolves to a private, loopback, link-local or metadata address,
 * or comes to after it was checked (DNS rebinding), is never connected to. WEBHOOK_ALLOWED_HOSTS lets development and
 * tests reach named hosts and addresses, and over plain http.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly allowedNames: ReadonlySet<string>;
  private readonly agents: { http: http.Agent; https: https.Agent; open: http.Agent; openTls: https.Agent };

  constructor(
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'WEBHOOK_ALLOWED_HOSTS' | 'WEBHOOK_TIMEOUT_MS'>,
  ) {
    const allowed = config.WEBHOOK_ALLOWED_HOSTS;
    const addresses = allowed.filter((h) => isIP(h) !== 0 || h.includes('/'));
    this.allowedNames = new Set(allowed.filter((h) => !addresses.includes(h)));
    // IPv4-compatible and NAT64 addresses are unicast to the filter, yet lead to IPv4 ones it would refuse.
    const filter = { allowIPAddressList: addresses, denyIPAddressList: DENIED, keepAlive: true, maxSockets: 16 };
    if (allowed.length > 0 && process.env.NODE_ENV === 'production') {
      new Logger('Webhooks').warn(
        `WEBHOOK_ALLOWED_HOSTS is set (${allowed.join(', ')}): webhooks may reach those hosts although they are not public`,
      );
    }
    this.agents = {
      http: new RequestFilteringHttpAgent(filter),
      https: new RequestFilteringHttpsAgent(filter),
      open: new http.Agent({ keepAlive: true, maxSockets: 16 }),
      openTls: new https.Agent({ keepAlive: true, maxSockets: 16 }),
    };
  }

  onModuleDestroy() {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  /** The host is on the development allow-list (by name or address). */
  allowedHost(hostname: string): boolean {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return this.allowedNames.has(host) || this.config.WEBHOOK_ALLOWED_HOSTS.includes(host);
  }

  /**
   * Why an endpoint's address is refused before anything is sent, or null: not http(s), plain http to a host not
   * allowed, or a literal address that is not public. (A name is checked on what it resolves to, at connect time.)
   */
  refusal(url: URL): 'url' | 'urlNotPublic' | null {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url';
    const allowed = this.allowedHost(url.hostname);
    if (url.protocol === 'http:' && !allowed) return 'url';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowed && (host === 'localhost' || host.endsWith('.localhost'))) return 'urlNotPublic';
    if (!allowed && isIP(host) !== 0 && !publicAddress(host)) return 'urlNotPublic';
    return null;
  }

  /**
   * POSTs `body` to `url`, signed now with `secret` (or each of several: a new secret and, in its grace, the one before
   * it). Never throws: a failure is an outcome.
   */
  async send(
    target: string,
    body: string,
    secret: string | readonly string[],
    headers: Record<string, string>,
    lookup?: LookupFunction,
  ): Promise<SendOutcome> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): SendOutcome => ({
      ok: error === null,
      status,
      latencyMs: Math.round(performance.now() - started),
      error: error && error.replace(UNPRINTABLE, '\uFFFD').slice(0, ERROR_MAX),
    });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return done(null, 'The endpoint address is not a valid URL');
    }
    const refused = this.refusal(url);
    if (refused)
      return done(null, refused === 'url' ? 'Only https:// endpoints are delivered to' : notPublic(url.hostname));
    const allowed = this.allowedHost(url.hostname);
    const tls = url.protocol === 'https:';
    const agent = allowed ? (tls ? this.agents.openTls : this.agents.open) : tls ? this.agents.https : this.agents.http;
    const client = tls ? https : http;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = client.request(
        url,
        {
          method: 'POST',
          agent,
          ...(lookup ? { lookup } : {}),
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Seatlink-Webhooks/1',
            [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, body, clock.now()),
            ...headers,
          },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          // The answer's body is not needed: read and dropped so the connection can be reused, but no more than
          // ANSWER_READ_MAX bytes nor for longer than ANSWER_READ_MS (an endless answer is cut off).
          let read = 0;
          const cut = setTimeout(() => response.destroy(), ANSWER_READ_MS);
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > ANSWER_READ_MAX) response.destroy();
          });
          response.on('close', () => clearTimeout(cut));
          response.on('error', () => undefined);
          if (status >= 200 && status < 300) return finish(done(status, null));
          const why =
            status >= 300 && status < 400
              ? `HTTP ${status}: redirects are not followed`
              : `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`;
          finish(done(status, why));
        },
      );
      const timer = setTimeout(() => {
        finish(done(null, `No answer within ${this.config.WEBHOOK_TIMEOUT_MS} ms`));
        request.destroy();
      }, this.config.WEBHOOK_TIMEOUT_MS);
      request.on('error', (err: NodeJS.ErrnoException) => finish(done(null, describe(err, url.hostname))));
      request.end(body);
    });
  }
}

/**
 * A refused address, as the delivery log and the owner's e-mails show it: the host as its owner wrote it and "not a
 * public address", never what a name resolved to (an internal name's address tells an outsider about the network
 * inside; docs/reference.md "Webhooks").
 */
function notPublic(host: string): string {
  return `Refused: ${host} is not a public address`;
}

/** IPv4 and IPv6 addresses (with a port), as Node's socket errors name them. */
const ADDRESS_IN_TEXT = /\b(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7})(?::\d+)?\b/giu;

function describe(err: NodeJS.ErrnoException, host: string): string {
  // request-filtering-agent: "DNS lookup 10.0.0.1(family:4, host:x) is not allowed. Because, It is private IP address."
  if (/^DNS lookup .*is not allowed/s.test(err.message)) return notPublic(host);
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `The name ${host} could not be resolved`;
  if (err.code === 'ECONNREFUSED') return 'The connection was refused';
  if (err.code === 'ECONNRESET') return 'The connection was reset';
  if (err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH' || err.code === 'ETIMEDOUT') {
    return `${host} could not be reached`;
  }
  // Anything else says what failed, not where the name led ("connect EPIPE 203.0.113.5:443" names no address).
  return (err.message || String(err)).replace(ADDRESS_IN_TEXT, 'its address');
}

/** A literal address that is public unicast (the agent refuses the rest at connect time; this says so up front). */
function publicAddress(host: string): boolean {
  try {
    const address = ipaddr.parse(host);
    if (address.range() !== 'unicast') return false;
    return !DENIED.some((cidr) => {
      const [range, bits] = ipaddr.parseCIDR(cidr);
      return address.kind() === range.kind() && address.match(range, bits);
    });
  } catch {
    return false;
  }
}
