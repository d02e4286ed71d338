import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { RECOVERY_CODE_COUNT, RECOVERY_CODE_PATTERN } from '@seatlink/contracts';
import { and, eq, lt } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { userTotp } from './identity.schema.js';
import { clock } from '../../shared/clock.js';

/** What the app is called in the user's authenticator. */
const ISSUER = 'Seatlink';
/** A code of the step before or after the present one is taken too (a phone's clock a little off, a slow typist). */
const EPOCH_TOLERANCE_S = 30;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The SHA-256 of a recovery code as typed (normalised): what the user's stream keeps. */
export const recoveryCodeHash = (code: string) => createHash('sha256').update(code).digest('hex');

/** New recovery codes: 10 characters of base32 (50 random bits) each, shown as "ABCDE-FGH23". */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = Array.from(randomBytes(10), (b) => BASE32[b % 32]).join('');
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** A code as the contracts normalise it is a recovery code (not the app's six digits). */
export const isRecoveryCode = (code: string) => RECOVERY_CODE_PATTERN.test(code);

/**
 * The authenticator app's side of a second factor (otplib: RFC 6238, SHA-1, 6 digits, 30 s). The secret is kept in
 * `user_totp`, never in an event; a code is taken once: the time step of the last one used is kept, and a code of that
 * step or an earlier one is refused, by one conditional update (two requests with the same code: one wins).
 */
@Injectable()
export class TotpService {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /**
   * A new secret for the user to add to their app, replacing whatever was kept (the caller has checked on the user's
   * stream that no app is on: a secret left behind by a crash is replaced, not trusted).
   */
  async start(userId: string, accountName: string): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = generateSecret();
    const createdAt = clock.now();
    await this.database.db
      .insert(userTotp)
      .values({ userId, secret, confirmed: false, lastUsedStep: 0, createdAt })
      .onConflictDoUpdate({ target: userTotp.userId, set: { secret, confirmed: false, lastUsedStep: 0, createdAt } });
    return { secret, otpauthUrl: generateURI({ issuer: ISSUER, label: accountName, secret }) };
  }

  /**
   * Takes the code once if it is the app's (the one the user's stream says is on, or the one being set up: the caller
   * knows which). Answers the secret it was taken by, or null for a wrong code, one used before, or no app.
   */
  async take(userId: string, code: string, now = clock.now()): Promise<string | null> {
    const [row] = await this.database.db.select().from(userTotp).where(eq(userTotp.userId, userId));
    if (!row) return null;
    let result;
    try {
      result = await verify({
        secret: row.secret,
        token: code,
        epoch: Math.floor(now.getTime() / 1000),
        epochTolerance: EPOCH_TOLERANCE_S,
        afterTimeStep: row.lastUsedStep,
      });
    } catch {
      // otplib refuses a last step ahead of this clock's window (a code of the next step taken by a process whose
      // clock runs ahead): no code of this window can be newer, so none is taken.
      return null;
    }
    // A TOTP result names the time step its code is of (an HOTP one would not: this is always TOTP).
    if (!result.valid || !('timeStep' in result)) return null;
    const taken = await this.database.db
      .update(userTotp)
      .set({ lastUsedStep: result.timeStep })
      .where(
        and(eq(userTotp.userId, userId), eq(userTotp.secret, row.secret), lt(userTotp.lastUsedStep, result.timeStep)),
      )
      .returning({ userId: userTotp.userId });
    return taken.length === 1 ? row.secret : null;
  }

  /** Whether an app is being set up (a secret given, its first code not yet taken). */
  async pending(userId: string): Promise<boolean> {
    const [row] = await this.database.db
      .select({ userId: userTotp.userId })
      .from(userTotp)
      .where(and(eq(userTotp.userId, userId), eq(userTotp.confirmed, false)));
    return Boolean(row);
  }

  /**
   * The app being set up — the one whose code was taken, not one a set-up started meanwhile gave — is the user's app
   * now (its TotpEnabled is recorded; the stream is what counts). Answers false when the secret was replaced meanwhile.
   */
  async confirm(userId: string, secret: string): Promise<boolean> {
    const done = await this.database.db
      .update(userTotp)
      .set({ confirmed: true })
      .where(and(eq(userTotp.userId, userId), eq(userTotp.secret, secret)))
      .returning({ userId: userTotp.userId });
    return done.length === 1;
  }

  /** Forgets the app (TotpDisabled is recorded, or its enabling was refused). */
  async remove(userId: string): Promise<void> {
    await this.database.db.delete(userTotp).where(eq(userTotp.userId, userId));
  }
}
