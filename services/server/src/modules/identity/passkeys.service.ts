import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  PASSKEY_MESSAGES,
  PASSKEY_TRANSPORTS,
  type Passkey,
  type authenticationResponseSchema,
  type registrationResponseSchema,
} from '@seatlink/contracts';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { passkeyUses, webauthnChallenges } from './identity.schema.js';
import { type PasskeyOnRecord, PASSKEY_REFUSALS, type UserState } from './user.decider.js';
import { clock } from '../../shared/clock.js';

/** What the user's authenticator calls this site. */
const RP_NAME = 'Seatlink';
/** How long a browser has to answer a challenge (WebAuthn's own timeout is the same). */
const CEREMONY_MS = 5 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The ways to reach an authenticator WebAuthn names (a browser may send others, which are not kept). */
const KNOWN_TRANSPORTS: ReadonlySet<string> = new Set(PASSKEY_TRANSPORTS);

/**
 * What a challenge was given for: adding a passkey, a sign-in without a password, the second factor of a sign-in, a
 * step-up. An answer to one never passes for another.
 */
export type ChallengePurpose = 'register' | 'sign_in' | 'second_factor' | 'step_up';
type AuthenticationPurpose = Exclude<ChallengePurpose, 'register'>;

/** A credential id as WebAuthn gives it (base64url); anything else names no passkey. */
export const CREDENTIAL_ID = /^[A-Za-z0-9_-]{16,1400}$/;
type RegistrationAnswer = z.input<typeof registrationResponseSchema>;
type AuthenticationAnswer = z.input<typeof authenticationResponseSchema>;

/** An answer that does not check (400 when adding a passkey, 401 when signing in). */
const invalidAnswer = (status: 400 | 401) => new DomainError(PASSKEY_MESSAGES.invalid, 'PASSKEY_INVALID', status);
/** An answer to a challenge unknown, used or past its time: the ceremony starts again. */
const expiredChallenge = (status: 400 | 401) => new DomainError(PASSKEY_MESSAGES.expired, 'PASSKEY_EXPIRED', status);

/** The challenge a browser's answer says it answers (its clientDataJSON), or null when it says none readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,200}$/.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}

const challengeHash = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

/**
 * The WebAuthn side of passkeys (@simplewebauthn/server): the options a browser needs to make or use one, and the check
 * of its answer. A challenge answers once (taken by one conditional delete, whoever else sends the same answer), for
 * its purpose and, when it names one, its user; the relying party is the dashboard's origin (DASHBOARD_URL). What a
 * passkey is (its public key) is on the user's stream; its signature counter and last use are kept here.
 */
@Injectable()
export class Passkeys {
  private readonly origin: string;
  private readonly rpId: string;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const url = new URL(config.DASHBOARD_URL);
    this.origin = url.origin;
    this.rpId = url.hostname;
    // Browsers make passkeys only for a secure page named by a domain: say so at start, not at a user's first try.
    const ip = /^[\d.]+$/.test(url.hostname) || url.hostname.startsWith('[');
    const secure = url.protocol === 'https:' || url.hostname === 'localhost';
    if (ip || !secure) {
      new Logger('Passkeys').warn(
        `passkeys will not work at ${url.origin}: browsers need https and a domain name (or localhost); set DASHBOARD_URL`,
      );
    }
  }

  /** The options for `navigator.credentials.create`: a passkey kept on the device (discoverable), for this user. */
  async registrationOptions(state: UserState): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: this.rpId,
      userName: state.email,
      userID: isoUint8Array.fromUTF8String(state.userId!),
      userDisplayName: `${state.firstName} ${state.lastName}`.trim(),
      attestationType: 'none',
      excludeCredentials: state.passkeys.map((p) => ({ id: p.credentialId, transports: [...p.transports] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: CEREMONY_MS,
    });
    await this.keep(options.challenge, 'register', state.userId);
    return options;
  }

  /** Checks the browser's answer to the registration options given to this user: the passkey to record. */
  async verifyRegistration(
    userId: string,
    answer: RegistrationAnswer,
  ): Promise<Omit<PasskeyOnRecord, 'name' | 'addedAt'>> {
    const challenge = challengeOf(answer.response.clientDataJSON);
    if (!challenge) throw invalidAnswer(400);
    if (!(await this.take(challenge, 'register', userId))) throw expiredChallenge(400);
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: answer as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: false,
      });
    } catch {
      throw invalidAnswer(400);
    }
    if (!verified.verified) throw invalidAnswer(400);
    const { credential } = verified.registrationInfo;
    // The id the authenticator data names is the one the answer gives, and one a passkey can later be named by.
    if (credential.id !== answer.id || !CREDENTIAL_ID.test(credential.id)) throw invalidAnswer(400);
    await this.claim(userId, credential.id);
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      transports: (credential.transports ?? []).filter((t) => KNOWN_TRANSPORTS.has(t)),
    };
  }

  /**
   * The options for `navigator.credentials.get`. A sign-in without a password (`sign_in`) lets the device offer any
   * passkey of this site; a second factor or a step-up names the user's passkeys.
   */
  async authenticationOptions(
    purpose: AuthenticationPurpose,
    state: UserState | null,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      allowCredentials: state?.passkeys.map((p) => ({ id: p.credentialId, transports: [...p.transports] })) ?? [],
      userVerification: verifiesPerson(purpose, state) ? 'required' : 'preferred',
      timeout: CEREMONY_MS,
    });
    await this.keep(options.challenge, purpose, state?.userId ?? null);
    return options;
  }

  /**
   * Checks a browser's answer to authentication options: whose passkey signed (the user named by `userId` for a
   * second factor, or the one the passkey names for a sign-in), against the key on that user's stream. Answers the
   * user, the passkey and the counter it showed (recorded by {@link recordUse} once what it was for is done); refuses
   * with PASSKEY_INVALID.
   */
  async verifyAuthentication(
    purpose: AuthenticationPurpose,
    answer: AuthenticationAnswer,
    userId: string | null,
    stateOf: (userId: string) => Promise<UserState>,
    /** 401 for a sign-in; a signed-in user confirming it is them is refused with 400. */
    refusedWith: 400 | 401 = 401,
  ): Promise<{ userId: string; credentialId: string; counter: number }> {
    const invalid = () => invalidAnswer(refusedWith);
    const challenge = challengeOf(answer.response.clientDataJSON);
    if (!challenge) throw invalid();
    const handle = answer.response.userHandle ? safeUtf8(answer.response.userHandle) : null;
    const owner = userId ?? handle;
    if (!owner || !UUID.test(owner) || (handle !== null && handle !== owner)) throw invalid();
    if (!(await this.take(challenge, purpose, purpose === 'sign_in' ? null : owner))) {
      throw expiredChallenge(refusedWith);
    }
    const state = await stateOf(owner);
    const passkey = state.passkeys.find((p) => p.credentialId === answer.id);
    if (!passkey) throw invalid();
    const [use] = await this.database.db
      .select({ counter: passkeyUses.counter })
      .from(passkeyUses)
      .where(and(eq(passkeyUses.credentialId, passkey.credentialId), eq(passkeyUses.userId, owner)));
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: answer as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: isoBase64URL.toBuffer(passkey.publicKey),
          counter: use?.counter ?? 0,
          transports: [...passkey.transports] as AuthenticatorTransportFuture[],
        },
        requireUserVerification: verifiesPerson(purpose, state),
      });
    } catch {
      // A signature that does not check, a counter gone back (a copied authenticator), the wrong origin.
      throw invalid();
    }
    if (!verified.verified) throw invalid();
    return { userId: owner, credentialId: passkey.credentialId, counter: verified.authenticationInfo.newCounter };
  }

  /** The user's passkeys as GET /v1/me/passkeys lists them. */
  async list(state: UserState): Promise<Passkey[]> {
    const ids = state.passkeys.map((p) => p.credentialId);
    const uses = ids.length
      ? await this.database.db
          .select({ id: passkeyUses.credentialId, at: passkeyUses.lastUsedAt })
          .from(passkeyUses)
          .where(and(eq(passkeyUses.userId, state.userId!), inArray(passkeyUses.credentialId, ids)))
      : [];
    const lastUse = new Map(uses.map((u) => [u.id, u.at?.toISOString() ?? null]));
    return state.passkeys.map((p) => ({
      id: p.credentialId,
      name: p.name,
      created_at: p.addedAt,
      last_used_at: lastUse.get(p.credentialId) ?? null,
    }));
  }

  /** Forgets what was kept of a passkey the user removed (its id is free again). */
  async forget(userId: string, credentialId: string): Promise<void> {
    await this.database.db
      .delete(passkeyUses)
      .where(and(eq(passkeyUses.credentialId, credentialId), eq(passkeyUses.userId, userId)));
  }

  /** Deletes challenges past their time (none answered them). */
  async purgeExpired(now: Date): Promise<void> {
    await this.database.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  }

  /** Keeps a new challenge; one given to the same user for the same purpose before no longer answers. */
  private async keep(challenge: string, purpose: ChallengePurpose, userId: string | null) {
    if (userId !== null) {
      await this.database.db
        .delete(webauthnChallenges)
        .where(and(eq(webauthnChallenges.userId, userId), eq(webauthnChallenges.purpose, purpose)));
    }
    await this.database.db.insert(webauthnChallenges).values({
      challengeHash: challengeHash(challenge),
      purpose,
      userId,
      expiresAt: new Date(clock.now().getTime() + CEREMONY_MS),
    });
  }

  /** Takes a challenge once: true when it was given for this purpose (and user) and has not expired. */
  private async take(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<boolean> {
    const taken = await this.database.db
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.challengeHash, challengeHash(challenge)),
          eq(webauthnChallenges.purpose, purpose),
          userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
          gt(webauthnChallenges.expiresAt, clock.now()),
        ),
      )
      .returning({ hash: webauthnChallenges.challengeHash });
    return taken.length === 1;
  }

  /**
   * Records a use of the user's passkey once what it was for is done: the counter it showed (never lowered: two
   * answers at once keep the higher) and when.
   */
  async recordUse(used: { userId: string; credentialId: string; counter: number }) {
    const now = clock.now();
    await this.database.db
      .insert(passkeyUses)
      .values({ credentialId: used.credentialId, userId: used.userId, counter: used.counter, lastUsedAt: now })
      .onConflictDoUpdate({
        target: passkeyUses.credentialId,
        set: { counter: sql`greatest(${passkeyUses.counter}, ${used.counter})`, lastUsedAt: now },
        setWhere: eq(passkeyUses.userId, used.userId),
      });
  }

  /**
   * Takes a new credential id for the user: refused (409 PASSKEY_EXISTS) when it is another account's. A claim left by
   * a registration that went no further is the same user's to take again.
   */
  private async claim(userId: string, credentialId: string) {
    await this.database.db
      .insert(passkeyUses)
      .values({ credentialId, userId, counter: 0, lastUsedAt: null })
      .onConflictDoNothing();
    const [owner] = await this.database.db
      .select({ userId: passkeyUses.userId })
      .from(passkeyUses)
      .where(eq(passkeyUses.credentialId, credentialId));
    if (owner?.userId !== userId) throw PASSKEY_REFUSALS.exists();
  }
}

/**
 * Whether the passkey must verify the person (a PIN, a fingerprint), not only be touched: when it stands alone — a
 * sign-in without a password, or a step-up of an account with no app beside it.
 */
function verifiesPerson(purpose: AuthenticationPurpose, state: UserState | null): boolean {
  return purpose === 'sign_in' || (purpose === 'step_up' && !state?.totpEnabled);
}

type AuthenticatorTransportFuture = NonNullable<RegistrationResponseJSON['response']['transports']>[number];

/** A user handle as text (ours are UTF-8 user ids), or null when it is not. */
function safeUtf8(value: string): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(isoBase64URL.toBuffer(value));
  } catch {
    return null;
  }
}
