import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** A delay drawn uniformly between min and max milliseconds (both included). */
export interface LatencyRange {
  min: number;
  max: number;
}

/** The behaviour of the simulated remote that can change while it runs (PUT /control/config). */
export interface WalletSimConfig {
  /** A pass added without `visible_after_ms` shows up after a random delay in [0, arrivalDelayMaxMs). */
  arrivalDelayMaxMs: number;
  /** How long an access token stays valid. */
  tokenTtlMs: number;
  /** A global token bucket over every /v1 request; 0 turns the limit off. */
  rateLimit: { requestsPerSecond: number };
  /** Failure injection on /v1: a share of answers are 503 `unavailable`, and every answer waits first. */
  failure: { errorRate: number; latencyMs: LatencyRange };
}

/** Options of `createWalletSim` and `walletSimPlugin`; they override the environment, which overrides the defaults. */
export interface WalletSimOptions {
  arrivalDelayMaxMs?: number;
  tokenTtlMs?: number;
  rateLimit?: { requestsPerSecond?: number };
  failure?: { errorRate?: number; latencyMs?: LatencyRange };
  /**
   * Failed sign-ins (POST /v1/sessions) allowed per wallet and per address in 15 minutes before 429
   * (WALLET_SIM_SIGNIN_PER_WALLET, WALLET_SIM_SIGNIN_PER_ADDRESS). Default 20 and 100.
   */
  signInLimits?: { perWallet?: number; perAddress?: number };
  /** Seed the demo wallets (and seed them again on POST /control/reset). Default false. */
  seedDemo?: boolean;
  /**
   * The key every control call must carry in the header `x-control-key` (at least 16 characters). Absent (and no
   * WALLET_SIM_CONTROL_KEY): a random one is made, readable as `sim.controlKey` — the control API is never open.
   */
  controlKey?: string | null;
  /**
   * Where browsers reach this simulator (http or https, with its path): logo URLs are built on it. Default: the address
   * each request came to, which is right only when the caller and the browser reach the simulator the same way.
   */
  publicUrl?: string | null;
  /** The clock (epoch milliseconds): token expiry, arrival delays, rate limiting. Default Date.now. */
  now?: () => number;
  /** Randomness in [0, 1): arrival delays, failure injection, latency. Default Math.random. */
  random?: () => number;
  /** Where the WALLET_SIM_* settings are read from. Default process.env; pass {} to ignore the environment. */
  env?: Record<string, string | undefined>;
}

export const DEFAULT_CONFIG: WalletSimConfig = {
  arrivalDelayMaxMs: 15 * 60 * 1000,
  tokenTtlMs: 60 * 60 * 1000,
  rateLimit: { requestsPerSecond: 50 },
  failure: { errorRate: 0, latencyMs: { min: 0, max: 0 } },
};

const DAY_MS = 24 * 60 * 60 * 1000;

export const arrivalDelaySchema = z
  .number()
  .int()
  .min(0)
  .max(7 * DAY_MS);
export const tokenTtlSchema = z
  .number()
  .int()
  .min(1)
  .max(30 * DAY_MS);
export const requestsPerSecondSchema = z.number().min(0).max(1_000_000);
export const errorRateSchema = z.number().min(0).max(1);
export const latencySchema = z
  .object({ min: z.number().int().min(0).max(60_000), max: z.number().int().min(0).max(60_000) })
  .strict()
  .refine((range) => range.min <= range.max, 'latencyMs.min must not exceed latencyMs.max');

const configSchema = z.object({
  arrivalDelayMaxMs: arrivalDelaySchema,
  tokenTtlMs: tokenTtlSchema,
  rateLimit: z.object({ requestsPerSecond: requestsPerSecondSchema }),
  failure: z.object({ errorRate: errorRateSchema, latencyMs: latencySchema }),
});

/** Reads `min-max` (or a single number for a fixed delay). */
export function parseLatency(raw: string): LatencyRange {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(raw);
  if (!match) throw new Error(`WALLET_SIM_LATENCY_MS must look like "min-max" (milliseconds), got "${raw}"`);
  const min = Number(match[1]);
  return { min, max: match[2] === undefined ? min : Number(match[2]) };
}

function envNumber(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got "${raw}"`);
  return value;
}

/** The WALLET_SIM_* settings present in the environment. */
export function configFromEnv(env: Record<string, string | undefined>): WalletSimOptions {
  const latency = env.WALLET_SIM_LATENCY_MS?.trim();
  const controlKey = env.WALLET_SIM_CONTROL_KEY?.trim();
  return {
    arrivalDelayMaxMs: envNumber(env, 'WALLET_SIM_ARRIVAL_DELAY_MAX_MS'),
    tokenTtlMs: envNumber(env, 'WALLET_SIM_TOKEN_TTL_MS'),
    rateLimit: { requestsPerSecond: envNumber(env, 'WALLET_SIM_RATE_LIMIT_RPS') },
    failure: {
      errorRate: envNumber(env, 'WALLET_SIM_ERROR_RATE'),
      latencyMs: latency ? parseLatency(latency) : undefined,
    },
    controlKey: controlKey || undefined,
    publicUrl: env.WALLET_SIM_PUBLIC_URL?.trim() || undefined,
    signInLimits: {
      perWallet: envNumber(env, 'WALLET_SIM_SIGNIN_PER_WALLET'),
      perAddress: envNumber(env, 'WALLET_SIM_SIGNIN_PER_ADDRESS'),
    },
  };
}

export const DEFAULT_SIGN_IN_LIMITS = { perWallet: 20, perAddress: 100 } as const;
const signInLimitSchema = z.number().int().min(1).max(1_000_000_000);

const publicUrlSchema = z
  .url({ protocol: /^https?$/, message: 'publicUrl must be an http(s) URL' })
  .max(2000)
  .refine((url) => !/[?#]/.test(url), 'publicUrl takes no query or fragment')
  .transform((url) => url.replace(/\/+$/, ''));

/** The shortest control key accepted: a guessable key would leave the control API open. */
export const MIN_CONTROL_KEY_LENGTH = 16;

/** A fresh random control key (256 bits). */
export const newControlKey = () => randomBytes(32).toString('base64url');

export interface ResolvedOptions {
  config: WalletSimConfig;
  /** The control API's key: the one given, or a random one made for this simulator. */
  controlKey: string;
  publicUrl: string | null;
  signInLimits: { perWallet: number; perAddress: number };
  seedDemo: boolean;
  now: () => number;
  random: () => number;
}

/** Defaults, then the environment, then the options; throws on a value out of range. */
export function resolveOptions(options: WalletSimOptions = {}): ResolvedOptions {
  const fromEnv = configFromEnv(options.env ?? process.env);
  const pick = <T>(...values: (T | undefined)[]) => values.find((value) => value !== undefined);
  const candidate = {
    arrivalDelayMaxMs: pick(options.arrivalDelayMaxMs, fromEnv.arrivalDelayMaxMs, DEFAULT_CONFIG.arrivalDelayMaxMs),
    tokenTtlMs: pick(options.tokenTtlMs, fromEnv.tokenTtlMs, DEFAULT_CONFIG.tokenTtlMs),
    rateLimit: {
      requestsPerSecond: pick(
        options.rateLimit?.requestsPerSecond,
        fromEnv.rateLimit?.requestsPerSecond,
        DEFAULT_CONFIG.rateLimit.requestsPerSecond,
      ),
    },
    failure: {
      errorRate: pick(options.failure?.errorRate, fromEnv.failure?.errorRate, DEFAULT_CONFIG.failure.errorRate),
      latencyMs: pick(options.failure?.latencyMs, fromEnv.failure?.latencyMs, DEFAULT_CONFIG.failure.latencyMs),
    },
  };
  const parsed = configSchema.safeParse(candidate);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`wallet-sim: invalid configuration (${detail})`);
  }
  const controlKey = (options.controlKey ?? fromEnv.controlKey)?.trim();
  if (controlKey && (controlKey.length < MIN_CONTROL_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(controlKey))) {
    throw new Error(
      `wallet-sim: invalid configuration (controlKey: at least ${MIN_CONTROL_KEY_LENGTH} visible ASCII characters)`,
    );
  }
  const rawPublicUrl = options.publicUrl === undefined ? fromEnv.publicUrl : options.publicUrl;
  const publicUrl = rawPublicUrl ? publicUrlSchema.safeParse(rawPublicUrl) : null;
  if (publicUrl && !publicUrl.success) {
    throw new Error(`wallet-sim: invalid configuration (publicUrl: ${publicUrl.error.issues[0]!.message})`);
  }
  const limits = z.object({ perWallet: signInLimitSchema, perAddress: signInLimitSchema }).safeParse({
    perWallet: pick(options.signInLimits?.perWallet, fromEnv.signInLimits?.perWallet, DEFAULT_SIGN_IN_LIMITS.perWallet),
    perAddress: pick(
      options.signInLimits?.perAddress,
      fromEnv.signInLimits?.perAddress,
      DEFAULT_SIGN_IN_LIMITS.perAddress,
    ),
  });
  if (!limits.success) {
    throw new Error('wallet-sim: invalid configuration (signInLimits: whole numbers of at least 1)');
  }
  return {
    config: parsed.data,
    controlKey: controlKey || newControlKey(),
    publicUrl: publicUrl ? publicUrl.data : null,
    signInLimits: limits.data,
    seedDemo: options.seedDemo ?? false,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
  };
}
