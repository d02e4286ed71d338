import path from 'node:path';
import { z } from 'zod';

/** An optional string; empty counts as unset. */
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Bounds on every HTTP connection, so slow or silent clients cannot hold the server's connections: a request's
   * headers must arrive within HTTP_HEADERS_TIMEOUT_MS of its start and the whole request, body included, within
   * HTTP_REQUEST_TIMEOUT_MS (else 408 and the connection closes); a kept-alive connection waits
   * HTTP_KEEP_ALIVE_TIMEOUT_MS for its next request; a connection silent both ways for HTTP_IDLE_TIMEOUT_MS closes.
   * An answer may take its time (the idle bound aside), and an open socket.io connection is never cut: its WebSocket
   * leaves HTTP, and its long poll (at most socket.io's 25-second ping interval) stays under the idle bound.
   */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(30_000).max(3_600_000).default(60_000),
  /** Prometheus's `/metrics` on a port of its own (0: any free port); none when unset. */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  /** Where the metrics port listens: this machine only by default. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** PostgreSQL; without it, an embedded PostgreSQL server `npm start` runs itself, its data under DATA_DIR. */
  DATABASE_URL: optionalString,
  /**
   * Bounds on every wait for the database (embedded or DATABASE_URL), so that a stuck turn ends in an error (a 503 with
   * Retry-After to a request, logged with what held the database) instead of a wait with no end: a statement's run,
   * a lock's wait (a row another transaction holds), a transaction left open and idle, and a free connection.
   */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(10).max(600_000).default(5_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * Streaming replicas of the primary for the read routes (tickets, links, clicks, notifications, audit, admin lists),
   * comma-separated PostgreSQL URLs; every read from the primary when unset (infra/db/read-replicas.ts).
   */
  DATABASE_READ_URL: optionalString.transform((value) =>
    (value ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== ''),
  ),
  /** A replica further behind than this (since the last change it replayed) serves no read until it catches up. */
  DATABASE_READ_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /** How often the replicas' replay positions (and the primary's) are read. */
  DATABASE_READ_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(200),
  /**
   * Days after the end of a month that its claims' click events are compacted (docs/architecture.md, "Compacted
   * claims"): each event kept whole in far less room, its month's partition detached to be archived. 0: never.
   */
  EVENT_LOG_COMPACT_AFTER_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** Redis for BullMQ and the socket.io adapter; in-process queue and sockets when absent. */
  REDIS_URL: optionalString,
  /**
   * `true`: REDIS_URL names a seed node of a Redis Cluster (queues under a hash-tagged prefix, live updates on sharded
   * pub/sub; infra/redis/redis-client.ts).
   */
  REDIS_CLUSTER: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((v) => v === 'true'),
  /** Optional KurrentDB for events (read models stay in PostgreSQL). */
  KURRENTDB_URL: optionalString,
  SMTP_URL: optionalString,
  DATA_DIR: z.string().default('./data'),
  /**
   * Where the dashboard lives (links in e-mails, the one origin allowed by CORS and socket.io). Default:
   * http://localhost:<PORT>, the dashboard this process serves itself.
   */
  DASHBOARD_URL: optionalString.pipe(z.string().url().optional()),
  /** Built web app to serve from the API process; empty to serve none. */
  WEB_DIST: z.string().optional(),
  /**
   * How long a Redis command a request waits on may take (a job added, a throttle counted, the provider's pace): past
   * it, and at once while Redis is away, the request answers 503 with Retry-After instead of hanging.
   */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /**
   * How long a Redis client that met a command timeout (a hung Redis) fails its calls at once before a probe asks
   * Redis again (its circuit breaker, infra/redis/redis-breaker.ts): meanwhile no request waits out the timeout.
   */
  REDIS_BREAKER_OPEN_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** How often a process that runs jobs checks that the repeating schedules exist (they are made again if lost). */
  JOB_SCHEDULES_CHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Key prefix in Redis, so several deployments (or test runs) can share one Redis. */
  REDIS_PREFIX: z.string().default('seatlink'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 24),
  /** How often each API process checks that the sessions of its open sockets still live (expiry closes them). */
  SOCKET_SESSION_RECHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 14),
  /**
   * Sign-in attempts in each window: per account from one IP (strict), per account from anywhere (looser), per IP on
   * any account; and visitor calls per IP. A correct sign-in does not count.
   */
  THROTTLE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  THROTTLE_LOGIN_ACCOUNT_IP: z.coerce.number().int().min(1).default(5),
  THROTTLE_LOGIN_ACCOUNT: z.coerce.number().int().min(1).default(30),
  THROTTLE_LOGIN_IP: z.coerce.number().int().min(1).default(50),
  THROTTLE_PUBLIC_IP: z.coerce.number().int().min(1).default(30),
  /**
   * Card top-up attempts (POST /v1/topup and its completion) in each window, per user and per IP. Counted before the
   * payment is tried; a payment that succeeds gives its attempt back, so what is left counts declines and failures
   * (a card tester's signature).
   */
  THROTTLE_TOPUP_USER: z.coerce.number().int().min(1).default(5),
  THROTTLE_TOPUP_IP: z.coerce.number().int().min(1).default(10),
  /**
   * Sign-ins to the wallet provider (linking an account, each account of a batch, re-authenticating) in each window,
   * per user and per IP. Counted before the provider is asked; a sign-in that links the account gives its attempt
   * back. A batch is refused whole when it does not fit what is left, so the per-user figure should allow one full
   * batch (MAX_BATCH_ACCOUNTS, 20).
   */
  THROTTLE_WALLET_SIGNIN_USER: z.coerce.number().int().min(1).default(20),
  THROTTLE_WALLET_SIGNIN_IP: z.coerce.number().int().min(1).default(40),
  /**
   * PINs entered on links with one (a claim that brings a PIN), per device (the claim page's `device_id`) and per IP,
   * tried at once before the waits start; past them each try waits for the next, the waits doubling from 1 s up to
   * THROTTLE_PIN_MAX_WAIT_SECONDS (429 with Retry-After). Remembered a day from a device's or address's first try.
   * Nothing is counted per link: no one can lock a link's recipient out by trying wrong PINs.
   */
  THROTTLE_PIN_DEVICE: z.coerce.number().int().min(1).default(5),
  THROTTLE_PIN_IP: z.coerce.number().int().min(1).default(10),
  THROTTLE_PIN_MAX_WAIT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /**
   * `required` (the default): an admin must have a second factor before any admin page or call works (403
   * MFA_ENROLMENT_REQUIRED). `optional` turns that off, for development and tests that need a plain admin; the log
   * says so at start.
   */
  ADMIN_MFA: z.enum(['required', 'optional']).default('required'),
  /**
   * Setting credits, banning, resetting another user's password and creating invites need a sign-in or a confirmation
   * (POST /v1/me/step-up) within this many minutes.
   */
  STEP_UP_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /** Second-factor codes tried on one account per window (a sign-in's code, turning the app off). */
  THROTTLE_MFA_USER: z.coerce.number().int().min(1).default(10),
  /** Calls one API key may make per window (THROTTLE_WINDOW_MINUTES). */
  THROTTLE_API_KEY: z.coerce.number().int().min(1).default(1000),
  /**
   * Deliveries asked for by hand (test events and resends) one webhook endpoint may be sent per minute, whoever asks
   * (docs/reference.md "Limits and constants").
   */
  THROTTLE_WEBHOOK_ENDPOINT: z.coerce.number().int().min(1).default(5),
  /**
   * Hosts or addresses (comma-separated: names, IPs or CIDRs) webhooks may be delivered to although they are not public,
   * and over plain http: for development and tests only (`127.0.0.1`). Nothing else that resolves to a loopback,
   * private, link-local or metadata address is ever connected to.
   */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** A delivery's whole try (connect, send, the answer's status) gives up after this long. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** The wait after a delivery's first failed try; each next wait doubles (at most six hours). */
  WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** A delivery is retried for this long after its event, then given up. */
  WEBHOOK_RETRY_FOR_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(3 * 24 * 3600 * 1000),
  /** An endpoint is disabled (and its owner told) once it failed this many tries in a row ... */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(10),
  /** ... over at least this long without a success. */
  WEBHOOK_DISABLE_AFTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(3 * 24 * 3600 * 1000),
  /**
   * A delivery waits this long after its event happened before it goes: claims are recorded a few milliseconds after
   * they are counted, and the wait keeps a link's events in the order they happened.
   */
  WEBHOOK_SETTLE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * A sync's ticket changes wait for the sync to finish before they go as `tickets.synced` batches; changes older than
   * this whose sync never said it finished (it died half-way) go without it, at the next sweep.
   */
  WEBHOOK_BATCH_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(120_000),
  /** How often deliveries that are due and not queued (a queue that lost its jobs) are queued again. */
  WEBHOOK_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Deliveries one process makes at once. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /**
   * Deliveries to one endpoint tried at once, across every worker and process (counted on the deliveries' leases in
   * the database): an endpoint that hangs holds at most this many delivery workers.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
  /** reCAPTCHA v3; the human check is off unless both keys are set. */
  RECAPTCHA_SECRET_KEY: optionalString,
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_VERIFY_URL: optionalString,
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  MAIL_FROM: z.string().default('Seatlink <no-reply@seatlink.test>'),
  /**
   * Proxies in front of the API whose X-Forwarded-For to believe: `false` (none: the default), `true` (any), a hop
   * count (`1` behind one nginx), or a comma-separated list of addresses/CIDRs.
   */
  TRUST_PROXY: z.string().default('false'),
  /** How long a command's answer waits for the read models to show its change before answering 202 `pending`. */
  READ_MODEL_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /** Tries of an event that fails in a subscription before it is parked, and the first wait between them (doubling). */
  SUBSCRIPTION_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  SUBSCRIPTION_RETRY_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  /** Fallback poll of each subscription when no wake-up arrives. */
  SUBSCRIPTION_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** How often the process running the subscriptions says it is alive. */
  SUBSCRIPTION_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** /health answers 503 `degraded` past these: events a subscription is behind, seconds without a heartbeat from the
   * subscriptions host, seconds a transaction of this database holds the feed back; and any parked event. */
  HEALTH_MAX_LAG_EVENTS: z.coerce.number().int().min(0).default(10_000),
  HEALTH_HOST_SILENT_SECONDS: z.coerce.number().int().min(1).default(30),
  HEALTH_MAX_TRANSACTION_SECONDS: z.coerce.number().int().min(1).default(60),
  /** /health is degraded when committed events have waited this long, unreadable, behind an open transaction. */
  HEALTH_FEED_STALL_SECONDS: z.coerce.number().int().min(1).default(5),
  /**
   * How long after a distribution request its payment is settled, if the request did not settle it itself (the
   * process died, the database went away): every link it paid for is made by then, or its credits come back.
   */
  DISTRIBUTION_SETTLE_AFTER_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
  /**
   * How long after a registration or an account link took its first claim (an invite use, an e-mail address, a
   * wallet link) its compensation job looks whether it finished, and gives back what one that died half-way took.
   */
  FLOW_CHECK_AFTER_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  /**
   * The wallet provider's API. Default: the simulator, mounted at /wallet-sim by every process with HTTP and reached
   * at http://127.0.0.1:<PORT>/wallet-sim (a worker on another host needs it set).
   */
  WALLET_PROVIDER_URL: optionalString,
  /** 32 bytes, base64: encrypts the provider's access tokens at rest. Default: generated under DATA_DIR. */
  WALLET_TOKEN_KEY: optionalString,
  /**
   * The key of the mounted simulator's control API (header x-control-key; at least 16 characters). Default: one made
   * once in DATA_DIR/wallet-sim-control.key (mode 600) and printed at that start. Unused with WALLET_PROVIDER_URL.
   */
  WALLET_SIM_CONTROL_KEY: optionalString,
  /** Calls to the provider per second, shared by every worker. */
  WALLET_PROVIDER_RPS: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Syncs after a link or a new sign-in, in ms from it (passes take up to 15 minutes to arrive). */
  WALLET_SYNC_FOLLOW_UPS_MS: z.string().default('60000,300000,600000,960000'),
  /** Syncs one worker runs at once (each mostly waits on the provider). */
  WALLET_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** The periodic sync of every account. */
  WALLET_SYNC_EVERY_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /**
   * Whether the demo user gets the simulator's demo wallets linked (once, when it has no accounts). Default: when the
   * simulator is mounted here (no WALLET_PROVIDER_URL); say `true` for a simulator of its own (the compose stack).
   */
  SEED_DEMO_WALLETS: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  /** Stripe: with the secret key and the webhook secret set, card payments go to Stripe; else to the test gateway. */
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** The publishable key the browser's card field uses (Stripe mode). */
  STRIPE_PUBLISHABLE_KEY: optionalString,
  /** Another address for Stripe's API (a stand-in in tests). */
  STRIPE_API_URL: optionalString.pipe(z.string().url().optional()),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  /** JSON lines (for a log collector) or readable text; JSON when NODE_ENV=production, text otherwise. */
  LOG_FORMAT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['json', 'text']).optional()),
});

export type AppConfig = Omit<z.infer<typeof schema>, 'DASHBOARD_URL' | 'SEED_DEMO_WALLETS' | 'LOG_FORMAT'> & {
  LOG_FORMAT: 'json' | 'text';
  DASHBOARD_URL: string;
  SEED_DEMO_WALLETS: boolean;
  walletProviderUrl: string;
  /** The simulator is mounted in the HTTP processes (no WALLET_PROVIDER_URL given). */
  mountWalletSim: boolean;
  walletSyncFollowUpsMs: number[];
  webDist: string | null;
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
};

function parseTrustProxy(value: string): AppConfig['trustProxy'] {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    // Believe the nearest N hops (as proxy-addr does for a number).
    const hops = Number(v);
    return (_address: string, hop: number) => hop < hops;
  }
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const APP_CONFIG = Symbol('AppConfig');

function parseDelays(value: string): number[] {
  const delays = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .map(Number);
  if (delays.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new Error('Invalid configuration: WALLET_SYNC_FOLLOW_UPS_MS: comma-separated whole milliseconds');
  }
  return delays;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  if (parsed.data.HTTP_HEADERS_TIMEOUT_MS > parsed.data.HTTP_REQUEST_TIMEOUT_MS) {
    // The headers are part of the request: their bound cannot be the longer one (Node refuses it).
    throw new Error('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY } = parsed.data;
  if (STRIPE_SECRET_KEY && (!STRIPE_WEBHOOK_SECRET || !STRIPE_PUBLISHABLE_KEY)) {
    // Half a Stripe set-up would take money without crediting it (no webhooks) or show no card field.
    throw new Error(
      'Invalid configuration: STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY as well',
    );
  }
  const defaultWeb = path.resolve(import.meta.dirname, '../../../../../web/dist');
  return {
    ...parsed.data,
    DASHBOARD_URL: parsed.data.DASHBOARD_URL ?? `http://localhost:${parsed.data.PORT}`,
    walletProviderUrl: parsed.data.WALLET_PROVIDER_URL ?? `http://127.0.0.1:${parsed.data.PORT}/wallet-sim`,
    mountWalletSim: !parsed.data.WALLET_PROVIDER_URL,
    SEED_DEMO_WALLETS: parsed.data.SEED_DEMO_WALLETS ?? !parsed.data.WALLET_PROVIDER_URL,
    walletSyncFollowUpsMs: parseDelays(parsed.data.WALLET_SYNC_FOLLOW_UPS_MS),
    webDist: parsed.data.WEB_DIST ?? defaultWeb,
    trustProxy: parseTrustProxy(parsed.data.TRUST_PROXY),
    LOG_FORMAT: parsed.data.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'text'),
    ...overrides,
  };
}
