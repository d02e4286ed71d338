import { randomUUID } from 'node:crypto';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { v5 as uuidv5 } from 'uuid';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { handleCommand, type HandleOptions } from '../../shared/event-sourcing/aggregate-handler.js';
import { DomainError, fold } from '../../shared/event-sourcing/decider.js';
import { inviteDecider } from '../invites/invite.decider.js';
import { inviteStream } from '../invites/invite.events.js';
import { PasswordHasher } from './password-hasher.js';
import { emailClaimDecider, userDecider } from './user.decider.js';
import { type EmailClaimEvent, emailClaimStream, userStream } from './user.events.js';
import { RegisterUserCommand, type RegisterUserResult } from './register-user.command.js';
import {
  releaseClaims,
  ReleaseRegistrationClaimsJob,
  type RegistrationClaims,
} from './release-registration-claims.job.js';

const USER_ID_NAMESPACE = '0b8e5f2a-7c4d-4e1b-a9f3-5d2c8e7b6a14';

/**
 * Registration over three streams, as a saga: take one use of the invite code (its stream decides, so racing
 * registrations cannot overrun it), claim the e-mail address (its own stream, so it is taken once), then register the
 * user. A step that fails gives back what the earlier ones took; when even that fails (the database went away), a job
 * retries it until it succeeds, so nothing stays claimed.
 *
 * A visitor's registration with a taken address (`ifEmailTaken: 'tell-owner'`) ends as a new address's does, as far
 * as the visitor can tell: the invite use stays spent, the password is hashed all the same (the answer takes as
 * long), nothing of the owner's account changes, and the owner is told by e-mail (DuplicateRegistrationAttempted).
 */
@CommandHandler(RegisterUserCommand)
export class RegisterUserHandler implements ICommandHandler<RegisterUserCommand> {
  private readonly logger = new Logger('Registration');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly hasher: PasswordHasher,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  async execute({ input, now }: RegisterUserCommand): Promise<RegisterUserResult> {
    const userId = input.userId ?? (input.commandId ? uuidv5(input.commandId, USER_ID_NAMESPACE) : randomUUID());
    const email = input.email.trim().toLowerCase();
    const at = now.toISOString();
    const attempt = randomUUID();
    // Taking a use and claiming the address are idempotent by the user (the deciders answer "nothing to do" when this
    // user holds them), so each attempt has its own command ids; registering is never given back, so its id is the
    // user's: a retry after it was written answers what was written.
    const options = (step: string, once = false): HandleOptions => ({
      metadata: { actorId: input.actorId ?? userId, ip: input.ip },
      commandId: once ? `${step}:${userId}` : `${step}:${userId}:${attempt}`,
      maxAttempts: 50,
    });
    const code = input.inviteCode?.trim().toUpperCase();
    const claims: RegistrationClaims = { userId, email, ...(code ? { inviteCode: code } : {}), at, attempt };
    const taken = { invite: false, email: false };
    let inviteUse: string | null = null;
    try {
      if (code) {
        const use = await handleCommand(
          this.store,
          inviteDecider,
          inviteStream(code),
          { type: 'UseInvite', data: { code, userId, email, now: at } },
          options('invite-use'),
        );
        inviteUse = use.position;
        taken.invite = true;
      }
      await handleCommand(
        this.store,
        emailClaimDecider,
        emailClaimStream(email),
        { type: 'ClaimEmail', data: { email, userId } },
        options('claim'),
      );
      taken.email = true;
      const passwordHash = await this.hasher.hash(input.password);
      const result = await handleCommand(
        this.store,
        userDecider,
        userStream(userId),
        {
          type: 'RegisterUser',
          data: {
            userId,
            email,
            firstName: input.firstName,
            lastName: input.lastName,
            passwordHash,
            isAdmin: input.isAdmin,
            emailVerified: input.emailVerified,
            ...(code ? { inviteCode: code } : {}),
            now: at,
          },
        },
        options('register', true),
      );
      return { userId, position: result.position, events: result.events };
    } catch (err) {
      const emailTaken = err instanceof DomainError && err.code === 'EMAIL_TAKEN' && !taken.email;
      if (emailTaken && input.ifEmailTaken === 'tell-owner') {
        // As a new address's registration would: the invite use stays spent (giving it back would tell the visitor,
        // by the uses left, that the address is someone's), the password is hashed all the same, and the answer
        // waits on something written (the notice, or else the use) as a registration's waits on the new user.
        await this.hasher.hash(input.password);
        const told = await this.tellOwner(email, at, options('duplicate-notice'));
        return { userId, position: told.position ?? inviteUse, events: told.events, emailTaken: true };
      }
      if (taken.invite || taken.email) await this.giveBack(claims, taken);
      throw err;
    }
  }

  /** Tells the holder of a taken address that someone tried to register with it (their stream decides whether). */
  private async tellOwner(email: string, at: string, options: HandleOptions) {
    const claim = await this.store.readStream(emailClaimStream(email));
    const { claimedBy } = fold(
      emailClaimDecider,
      claim.events.map((e) => ({ type: e.type, data: e.data }) as EmailClaimEvent),
    );
    if (!claimedBy) return { position: null, events: [] };
    const result = await handleCommand(
      this.store,
      userDecider,
      userStream(claimedBy),
      { type: 'ReportDuplicateRegistration', data: { userId: claimedBy, now: at } },
      options,
    );
    return { position: result.position, events: result.events };
  }

  private async giveBack(claims: RegistrationClaims, taken: { invite: boolean; email: boolean }) {
    try {
      await releaseClaims(this.store, claims, taken);
    } catch (err) {
      this.logger.warn(
        `could not give back the claims of registration ${claims.userId} at once (${safeErrorMessage(err)}); queued`,
      );
      await this.queue
        .add(
          QueueName.Identity,
          ReleaseRegistrationClaimsJob.jobName,
          { ...claims, taken },
          {
            jobId: `release-${claims.userId}`,
            attempts: 20,
            backoff: { type: 'exponential', delayMs: 1000 },
          },
        )
        .catch((queueErr: unknown) =>
          this.logger.error(`registration ${claims.userId}: claims not given back: ${safeErrorMessage(queueErr)}`),
        );
    }
  }
}
