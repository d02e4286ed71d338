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
  /** PostgreSQL; embedded PGlite under DATA_DIR when absent. */
  DATABASE_URL: optionalString,
  /** Redis for BullMQ and the socket.io adapter; in-process queue and sockets when absent. */
  REDIS_URL: optionalString,
  /** Optional KurrentDB for events (read models stay in PostgreSQL). */
  KURRENTDB_URL: optionalString,
  SMTP_URL: optionalString,
  DATA_DIR: z.string().default('./data'),
  /** Where the dashboard lives (links in e-mails, the CORS origin when it is another host). */
  DASHBOARD_URL: z.string().url().default('http://localhost:3000'),
  /** Built web app to serve from the API process; empty to serve none. */
  WEB_DIST: z.string().optional(),
  /** Key prefix in Redis, so several deployments (or test runs) can share one Redis. */
  REDIS_PREFIX: z.string().default('seatlink'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 24),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 14),
  /** Failed sign-ins allowed per account and per IP, and public POSTs per IP, in each window. */
  THROTTLE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  THROTTLE_LOGIN_ACCOUNT: z.coerce.number().int().min(1).default(5),
  THROTTLE_LOGIN_IP: z.coerce.number().int().min(1).default(50),
  THROTTLE_PUBLIC_IP: z.coerce.number().int().min(1).default(30),
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
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
});

export type AppConfig = z.infer<typeof schema> & {
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const defaultWeb = path.resolve(import.meta.dirname, '../../../../../web/dist');
  return {
    ...parsed.data,
    webDist: parsed.data.WEB_DIST ?? defaultWeb,
    trustProxy: parseTrustProxy(parsed.data.TRUST_PROXY),
    ...overrides,
  };
}
