import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ResolvedOptions, WalletSimConfig } from './config.js';
import { SignInGuard } from './sign-in-guard.js';
import { TokenBucket } from './token-bucket.js';

/** An error answered as `{ error: code, message }` with the given HTTP status (and headers). */
export class WalletSimError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'WalletSimError';
  }
}

export interface Account {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string;
}

export interface Seat {
  section: string;
  row: string;
  seat: string;
}

export interface NextGame {
  title: string;
  /** ISO 8601. */
  date: string;
}

/** A pass as the remote stores it (the API answers it with a logo URL instead of the slug). */
export interface PassRecord {
  id: string;
  barcode: string;
  event: { title: string; subtitle: string; logo_slug: string };
  venue: { name: string };
  seat: Seat | null;
  next_game: NextGame | null;
}

export interface NewPass {
  id?: string;
  barcode?: string;
  event: { title: string; subtitle: string; logo_slug?: string };
  venue: { name: string };
  seat?: Seat | null;
  next_game?: NextGame | null;
  visible_after_ms?: number;
}

export interface PassChanges {
  barcode?: string;
  event?: { title?: string; subtitle?: string; logo_slug?: string };
  venue?: { name: string };
  seat?: Seat | null;
  next_game?: NextGame | null;
}

/** A pass held by one wallet: when it was added, when it becomes visible through the API, when it last changed. */
export interface WalletPass {
  pass: PassRecord;
  /** A raw pass: the API answers `value` as it is instead of `pass` (a provider that misbehaves). */
  raw?: { value: unknown };
  addedAt: number;
  visibleAt: number;
  modifiedAt: number;
}

export interface NewWallet {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
}

interface Wallet {
  account: Account;
  passwordDigest: Buffer;
  passes: Map<string, WalletPass>;
}

interface Session {
  email: string;
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface RequestStats {
  total: number;
  by_route: Record<string, number>;
  by_status: Record<string, number>;
  rate_limited: number;
  failed: number;
}

/** Bounds that keep a long-running simulator's memory in check. */
export const LIMITS = { wallets: 10_000, passesPerWallet: 10_000, sessions: 100_000 } as const;
/** Expired or revoked sessions are forgotten this long after the fact (then their token is simply unknown). */
const SESSION_MEMORY_MS = 24 * 60 * 60 * 1000;

const digest = (password: string) => createHash('sha256').update(password, 'utf8').digest();
const hashId = (prefix: string, key: string, length = 20) =>
  `${prefix}${createHash('sha256').update(key).digest('hex').slice(0, length)}`;

/** A stable account id for an e-mail address (the demo wallets keep theirs across restarts). */
export const accountIdFor = (email: string) => hashId('acct_', `account:${email}`);

/** "Harbourside Athletic FC" → "harbourside-athletic-fc" (at most 64 characters; "club" when nothing is left). */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug || 'club';
}

function newBarcode(): string {
  const bytes = randomBytes(16);
  let digits = '';
  for (const byte of bytes) digits += String(byte % 10);
  return digits.slice(0, 16);
}

/**
 * The remote's state and rules, without HTTP: wallets and their passes, sessions, configuration, the rate-limit
 * bucket and request statistics. Kept in memory.
 */
export class WalletSim {
  private readonly wallets = new Map<string, Wallet>();
  private readonly sessions = new Map<string, Session>();
  private current: WalletSimConfig;
  private bucket: TokenBucket;
  private counters: RequestStats = WalletSim.emptyStats();
  private guard: SignInGuard;

  /** The key every control call must carry (x-control-key). */
  readonly controlKey: string;
  /** Where browsers reach the simulator (logo URLs), when the requests' own address is not it. */
  readonly publicUrl: string | null;
  readonly now: () => number;
  readonly random: () => number;

  constructor(
    private readonly resolved: ResolvedOptions,
    private readonly seed?: (sim: WalletSim) => void,
  ) {
    this.controlKey = resolved.controlKey;
    this.publicUrl = resolved.publicUrl;
    this.now = resolved.now;
    this.random = resolved.random;
    this.current = structuredClone(resolved.config);
    this.bucket = new TokenBucket(this.current.rateLimit.requestsPerSecond, this.now());
    this.guard = new SignInGuard(resolved.signInLimits);
    if (resolved.seedDemo) this.seed?.(this);
  }

  // ---- configuration -------------------------------------------------------------------------------------------

  get config(): WalletSimConfig {
    return structuredClone(this.current);
  }

  updateConfig(changes: {
    arrivalDelayMaxMs?: number;
    tokenTtlMs?: number;
    rateLimit?: { requestsPerSecond: number };
    errorRate?: number;
    latencyMs?: { min: number; max: number };
  }): WalletSimConfig {
    const next = structuredClone(this.current);
    if (changes.arrivalDelayMaxMs !== undefined) next.arrivalDelayMaxMs = changes.arrivalDelayMaxMs;
    if (changes.tokenTtlMs !== undefined) next.tokenTtlMs = changes.tokenTtlMs;
    if (changes.errorRate !== undefined) next.failure.errorRate = changes.errorRate;
    if (changes.latencyMs !== undefined) next.failure.latencyMs = { ...changes.latencyMs };
    if (changes.rateLimit !== undefined) {
      next.rateLimit = { requestsPerSecond: changes.rateLimit.requestsPerSecond };
      this.bucket = new TokenBucket(next.rateLimit.requestsPerSecond, this.now());
    }
    this.current = next;
    return this.config;
  }

  /** Empties everything (wallets, sessions, statistics, configuration back to the start) and seeds again if asked. */
  reset(): void {
    this.wallets.clear();
    this.sessions.clear();
    this.counters = WalletSim.emptyStats();
    this.current = structuredClone(this.resolved.config);
    this.bucket = new TokenBucket(this.current.rateLimit.requestsPerSecond, this.now());
    this.guard = new SignInGuard(this.resolved.signInLimits);
    if (this.resolved.seedDemo) this.seed?.(this);
  }

  // ---- traffic -------------------------------------------------------------------------------------------------

  /** Takes a token from the global bucket: null when the request may go on, else the wait in milliseconds. */
  takeRateLimitToken(): number | null {
    return this.bucket.take(this.now());
  }

  /** Whether this request should fail (failure injection). */
  shouldFail(): boolean {
    const rate = this.current.failure.errorRate;
    return rate > 0 && this.random() < rate;
  }

  /** The injected delay for this request, in milliseconds. */
  latency(): number {
    const { min, max } = this.current.failure.latencyMs;
    return max <= min ? min : min + Math.floor(this.random() * (max - min + 1));
  }

  recordRequest(route: string): void {
    this.counters.total += 1;
    this.counters.by_route[route] = (this.counters.by_route[route] ?? 0) + 1;
  }

  recordStatus(status: number): void {
    const key = String(status);
    this.counters.by_status[key] = (this.counters.by_status[key] ?? 0) + 1;
  }

  recordRateLimited(): void {
    this.counters.rate_limited += 1;
  }

  recordFailure(): void {
    this.counters.failed += 1;
  }

  get stats(): RequestStats {
    return structuredClone(this.counters);
  }

  resetStats(): void {
    this.counters = WalletSim.emptyStats();
  }

  private static emptyStats(): RequestStats {
    return { total: 0, by_route: {}, by_status: {}, rate_limited: 0, failed: 0 };
  }

  // ---- wallets -------------------------------------------------------------------------------------------------

  createWallet(input: NewWallet): Account {
    const email = input.email.trim().toLowerCase();
    if (this.wallets.has(email)) throw new WalletSimError(409, 'wallet_exists', `A wallet for ${email} already exists`);
    if (this.wallets.size >= LIMITS.wallets) {
      throw new WalletSimError(409, 'limit_reached', `The simulator holds at most ${LIMITS.wallets} wallets`);
    }
    const account: Account = {
      id: accountIdFor(email),
      email,
      first_name: input.first_name,
      last_name: input.last_name,
      display_name: `${input.first_name} ${input.last_name}`,
    };
    this.wallets.set(email, { account, passwordDigest: digest(input.password), passes: new Map() });
    return { ...account };
  }

  listWallets(): { account: Account; passes: number; visible_passes: number }[] {
    const now = this.now();
    return [...this.wallets.values()].map((wallet) => ({
      account: { ...wallet.account },
      passes: wallet.passes.size,
      visible_passes: [...wallet.passes.values()].filter((entry) => entry.visibleAt <= now).length,
    }));
  }

  account(email: string): Account {
    return { ...this.wallet(email).account };
  }

  deleteWallet(email: string): void {
    const wallet = this.wallet(email);
    this.wallets.delete(wallet.account.email);
    for (const [token, session] of this.sessions)
      if (session.email === wallet.account.email) this.sessions.delete(token);
  }

  private wallet(email: string): Wallet {
    const wallet = this.wallets.get(email.trim().toLowerCase());
    if (!wallet) throw new WalletSimError(404, 'wallet_not_found', `No wallet for ${email}`);
    return wallet;
  }

  /** Sets a new password and revokes every token of the wallet; answers how many were still valid. */
  changePassword(email: string, password: string): number {
    const wallet = this.wallet(email);
    wallet.passwordDigest = digest(password);
    const now = this.now();
    let revoked = 0;
    for (const session of this.sessions.values()) {
      if (session.email !== wallet.account.email || session.revokedAt !== null) continue;
      if (session.expiresAt > now) revoked += 1;
      session.revokedAt = now;
    }
    return revoked;
  }

  /** Makes every token of the wallet expire now; answers how many were still valid. */
  expireTokens(email: string): number {
    const wallet = this.wallet(email);
    const now = this.now();
    let expired = 0;
    for (const session of this.sessions.values()) {
      if (session.email !== wallet.account.email || session.revokedAt !== null || session.expiresAt <= now) continue;
      session.expiresAt = now;
      expired += 1;
    }
    return expired;
  }

  // ---- sessions ------------------------------------------------------------------------------------------------

  /** Logs in: the same error whether the e-mail or the password is wrong. */
  /** A sign-in from `address`, counted against guessing (SignInGuard): 429 past the limits, else as login(). */
  signIn(email: string, password: string, address: string): Promise<ReturnType<WalletSim['login']>> {
    return this.guard.attempt(email, address, () => this.login(email, password));
  }

  login(email: string, password: string): { token: string; account: Account; expiresAt: number; ttlMs: number } {
    const wallet = this.wallets.get(email.trim().toLowerCase());
    const given = digest(password);
    const expected = wallet?.passwordDigest ?? digest(`\u0000no wallet\u0000${password}`);
    if (!timingSafeEqual(given, expected) || !wallet) {
      throw new WalletSimError(401, 'invalid_credentials', 'The e-mail address or password is incorrect');
    }
    const now = this.now();
    this.forgetOldSessions(now);
    const token = `wst_${randomBytes(32).toString('base64url')}`;
    const ttlMs = this.current.tokenTtlMs;
    this.sessions.set(token, { email: wallet.account.email, issuedAt: now, expiresAt: now + ttlMs, revokedAt: null });
    return { token, account: { ...wallet.account }, expiresAt: now + ttlMs, ttlMs };
  }

  /** The account of a bearer token, or 401 invalid_token / token_expired / token_revoked. */
  authenticate(token: string | null): Account {
    const session = token ? this.sessions.get(token) : undefined;
    const wallet = session ? this.wallets.get(session.email) : undefined;
    if (!session || !wallet) throw new WalletSimError(401, 'invalid_token', 'The access token is not valid');
    if (session.revokedAt !== null) {
      throw new WalletSimError(401, 'token_revoked', 'The access token was revoked; sign in again');
    }
    if (session.expiresAt <= this.now()) {
      throw new WalletSimError(401, 'token_expired', 'The access token has expired; sign in again');
    }
    return { ...wallet.account };
  }

  private forgetOldSessions(now: number): void {
    for (const [token, session] of this.sessions) {
      const end = session.revokedAt ?? session.expiresAt;
      if (end + SESSION_MEMORY_MS < now) this.sessions.delete(token);
    }
    // Still too many: the oldest go first (a Map iterates in insertion order).
    for (const token of this.sessions.keys()) {
      if (this.sessions.size < LIMITS.sessions) break;
      this.sessions.delete(token);
    }
  }

  // ---- passes --------------------------------------------------------------------------------------------------

  /** The visible passes of a wallet in pass-id order, after `afterId`, at most `limit`; `more` when others follow. */
  visiblePasses(email: string, afterId: string | null, limit: number): { passes: WalletPass[]; more: boolean } {
    const now = this.now();
    const visible = [...this.wallet(email).passes.values()]
      .filter((entry) => entry.visibleAt <= now && (afterId === null || entry.pass.id > afterId))
      .sort((a, b) => (a.pass.id < b.pass.id ? -1 : a.pass.id > b.pass.id ? 1 : 0));
    return { passes: visible.slice(0, limit).map(copyEntry), more: visible.length > limit };
  }

  /** A pass by its id, in whichever wallet holds it (the first found); null when none does. */
  findPass(passId: string): WalletPass | null {
    for (const wallet of this.wallets.values()) {
      const entry = wallet.passes.get(passId);
      if (entry) return copyEntry(entry);
    }
    return null;
  }

  /** Every pass of a wallet, visible or still arriving, in pass-id order. */
  allPasses(email: string): WalletPass[] {
    return [...this.wallet(email).passes.values()]
      .sort((a, b) => (a.pass.id < b.pass.id ? -1 : a.pass.id > b.pass.id ? 1 : 0))
      .map(copyEntry);
  }

  /** Adds a pass; it becomes visible after `visible_after_ms`, else after a random arrival delay. */
  addPass(email: string, input: NewPass): WalletPass {
    const wallet = this.wallet(email);
    const id = input.id ?? `ps_${randomBytes(10).toString('hex')}`;
    if (wallet.passes.has(id)) {
      throw new WalletSimError(409, 'pass_exists', `The wallet of ${wallet.account.email} already holds pass ${id}`);
    }
    if (wallet.passes.size >= LIMITS.passesPerWallet) {
      throw new WalletSimError(409, 'limit_reached', `A wallet holds at most ${LIMITS.passesPerWallet} passes`);
    }
    const pass: PassRecord = {
      id,
      barcode: input.barcode ?? newBarcode(),
      event: {
        title: input.event.title,
        subtitle: input.event.subtitle,
        logo_slug: input.event.logo_slug ?? slugify(input.event.title),
      },
      venue: { name: input.venue.name },
      seat: input.seat ? { ...input.seat } : null,
      next_game: input.next_game ? { ...input.next_game } : null,
    };
    const delay = input.visible_after_ms ?? Math.floor(this.random() * this.current.arrivalDelayMaxMs);
    return copyEntry(this.put(wallet, pass, delay));
  }

  /**
   * Adds a pass that the API answers exactly as `raw` (any JSON), to try a product against a provider that sends what
   * it should not. It is listed in id order like any pass, visible after `visible_after_ms` (default: at once).
   */
  addRawPass(email: string, input: { id?: string; raw: unknown; visible_after_ms?: number }): WalletPass {
    const wallet = this.wallet(email);
    const id = input.id ?? `raw_${randomBytes(10).toString('hex')}`;
    if (wallet.passes.has(id)) {
      throw new WalletSimError(409, 'pass_exists', `The wallet of ${wallet.account.email} already holds pass ${id}`);
    }
    if (wallet.passes.size >= LIMITS.passesPerWallet) {
      throw new WalletSimError(409, 'limit_reached', `A wallet holds at most ${LIMITS.passesPerWallet} passes`);
    }
    const placeholder: PassRecord = {
      id,
      barcode: '',
      event: { title: 'A pass sent as given', subtitle: '', logo_slug: 'club' },
      venue: { name: '' },
      seat: null,
      next_game: null,
    };
    const entry = this.put(wallet, placeholder, input.visible_after_ms ?? 0);
    entry.raw = { value: structuredClone(input.raw) };
    return copyEntry(entry);
  }

  /** Changes a pass the wallet holds (as when the club moves the next game); its updated_at moves on. */
  updatePass(email: string, passId: string, changes: PassChanges): WalletPass {
    const entry = this.entry(email, passId);
    const pass = entry.pass;
    if (changes.barcode !== undefined) pass.barcode = changes.barcode;
    if (changes.event !== undefined) pass.event = { ...pass.event, ...changes.event };
    if (changes.venue !== undefined) pass.venue = { ...changes.venue };
    if (changes.seat !== undefined) pass.seat = changes.seat ? { ...changes.seat } : null;
    if (changes.next_game !== undefined) pass.next_game = changes.next_game ? { ...changes.next_game } : null;
    entry.modifiedAt = this.now();
    return copyEntry(entry);
  }

  removePass(email: string, passId: string): void {
    const wallet = this.wallet(email);
    this.entry(email, passId);
    wallet.passes.delete(passId);
  }

  /** Moves a pass from one wallet to another: visible there at once, or after `visibleAfterMs`. */
  movePass(passId: string, from: string, to: string, visibleAfterMs = 0): WalletPass {
    const source = this.wallet(from);
    const target = this.wallet(to);
    const entry = this.entry(from, passId);
    if (source === target) throw new WalletSimError(409, 'same_wallet', 'The pass is already in that wallet');
    if (target.passes.has(passId)) {
      throw new WalletSimError(
        409,
        'pass_exists',
        `The wallet of ${target.account.email} already holds pass ${passId}`,
      );
    }
    if (target.passes.size >= LIMITS.passesPerWallet) {
      throw new WalletSimError(409, 'limit_reached', `A wallet holds at most ${LIMITS.passesPerWallet} passes`);
    }
    source.passes.delete(passId);
    const moved = this.put(target, structuredClone(entry.pass), visibleAfterMs);
    if (entry.raw) moved.raw = entry.raw;
    return copyEntry(moved);
  }

  private entry(email: string, passId: string): WalletPass {
    const wallet = this.wallet(email);
    const entry = wallet.passes.get(passId);
    if (!entry) {
      throw new WalletSimError(404, 'pass_not_found', `The wallet of ${wallet.account.email} holds no pass ${passId}`);
    }
    return entry;
  }

  private put(wallet: Wallet, pass: PassRecord, delayMs: number): WalletPass {
    const now = this.now();
    const entry: WalletPass = { pass, addedAt: now, visibleAt: now + delayMs, modifiedAt: now };
    wallet.passes.set(pass.id, entry);
    return entry;
  }
}

function copyEntry(entry: WalletPass): WalletPass {
  return { ...entry, pass: structuredClone(entry.pass), ...(entry.raw ? { raw: { value: entry.raw.value } } : {}) };
}

/** When a pass last changed as the API sees it: an arriving pass changes when it arrives. */
export const updatedAt = (entry: WalletPass) => Math.max(entry.modifiedAt, entry.visibleAt);
