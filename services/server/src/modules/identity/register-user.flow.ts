import { randomUUID } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { v5 as uuidv5 } from 'uuid';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import type { CommandMeta } from '../../shared/event-sourcing/aggregate-command.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { COMPENSATION_JOB_OPTIONS } from '../../shared/event-sourcing/flow.js';
import { InviteCommandMessage } from '../invites/index.js';
import { PasswordHasher } from './password-hasher.js';
import {
  emailHolder,
  giveBackClaims,
  type RegistrationClaims,
  ReleaseRegistrationClaimsJob,
  type Taken,
} from './register-user.compensation.job.js';
import { RegisterUserCommand, type RegisterUserResult } from './register-user.command.js';
import { EmailClaimCommandMessage, UserCommandMessage } from './user.command.js';

const USER_ID_NAMESPACE = '0b8e5f2a-7c4d-4e1b-a9f3-5d2c8e7b6a14';

/**
 * Registration over three streams: take one use of the invite code (its stream decides, so racing registrations
 * cannot overrun it), claim the e-mail address (its own stream, so it is taken once), then register the user. A step
 * that fails gives back what the earlier ones took; when even that fails (the database went away), the compensation
 * job gives it back later. The first claim is the record that a registration started: a process that dies half-way
 * leaves it, and the compensation job, handed it by RegistrationClaimsWatch, gives back what was not registered.
 *
 * A visitor's registration with a taken address (`ifEmailTaken: 'tell-owner'`) ends as a new address's does, as far
 * as the visitor can tell: the invite use stays spent, the password is hashed all the same (the answer takes as
 * long), nothing of the owner's account changes, and the owner is told by e-mail (DuplicateRegistrationAttempted).
 */
@CommandHandler(RegisterUserCommand)
export class RegisterUserFlow implements ICommandHandler<RegisterUserCommand> {
  private readonly logger = new Logger('Registration');

  constructor(
    private readonly commandBus: CommandBus,
    private readonly hasher: PasswordHasher,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute({ input, now }: RegisterUserCommand): Promise<RegisterUserResult> {
    const userId = input.userId ?? (input.commandId ? uuidv5(input.commandId, USER_ID_NAMESPACE) : randomUUID());
    const email = input.email.trim().toLowerCase();
    const at = now.toISOString();
    const attempt = randomUUID();
    // Taking a use and claiming the address are idempotent by the user (the deciders answer "nothing to do" when this
    // user holds them), so each attempt has its own command ids; registering is never given back, so its id is the
    // user's: a retry after it was written answers what was written.
    const meta = (step: string, once = false): CommandMeta => ({
      actorId: input.actorId ?? userId,
      ip: input.ip,
      commandId: once ? `${step}:${userId}` : `${step}:${userId}:${attempt}`,
    });
    const code = input.inviteCode?.trim().toUpperCase();
    const claims: RegistrationClaims = { userId, email, ...(code ? { inviteCode: code } : {}), at, attempt };
    const taken: Taken = { invite: false, email: false };
    let inviteUse: string | null = null;
    try {
      if (code) {
        const use = await this.commandBus.execute(
          new InviteCommandMessage({ type: 'UseInvite', data: { code, userId, email, now: at } }, meta('invite-use')),
        );
        inviteUse = use.position;
        taken.invite = true;
      }
      await this.commandBus.execute(
        new EmailClaimCommandMessage({ type: 'ClaimEmail', data: { email, userId } }, meta('claim')),
      );
      taken.email = true;
      const passwordHash = await this.hasher.hash(input.password);
      const result = await this.commandBus.execute(
        new UserCommandMessage(
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
          meta('register', true),
        ),
      );
      return { userId, position: result.position, events: result.events };
    } catch (err) {
      const emailTaken = err instanceof DomainError && err.code === 'EMAIL_TAKEN' && !taken.email;
      if (emailTaken && input.ifEmailTaken === 'tell-owner') {
        // As a new address's registration would: the invite use stays spent (giving it back would tell the visitor,
        // by the uses left, that the address is someone's), the password is hashed all the same, and the answer
        // waits on something written (the notice, or else the use) as a registration's waits on the new user.
        await this.hasher.hash(input.password);
        const told = await this.tellOwner(email, at, meta('duplicate-notice'));
        return { userId, position: told.position ?? inviteUse, events: told.events, emailTaken: true };
      }
      if (taken.invite || taken.email) await this.giveBack(claims, taken);
      throw err;
    }
  }

  /** Tells the holder of a taken address that someone tried to register with it (their stream decides whether). */
  private async tellOwner(email: string, at: string, meta: CommandMeta) {
    const owner = await emailHolder(this.store, email);
    if (!owner) return { position: null, events: [] };
    const result = await this.commandBus.execute(
      new UserCommandMessage({ type: 'ReportDuplicateRegistration', data: { userId: owner, now: at } }, meta),
    );
    return { position: result.position, events: result.events };
  }

  private async giveBack(claims: RegistrationClaims, taken: Taken) {
    try {
      await giveBackClaims(this.commandBus, this.store, claims, taken);
    } catch (err) {
      this.logger.warn(
        `could not give back the claims of registration ${claims.userId} at once (${safeErrorMessage(err)}); queued`,
      );
      await this.queue
        .add(
          QueueName.Identity,
          ReleaseRegistrationClaimsJob.jobName,
          { ...claims, taken },
          { ...COMPENSATION_JOB_OPTIONS, jobId: `release-${claims.userId}` },
        )
        .catch((queueErr: unknown) =>
          this.logger.error(`registration ${claims.userId}: claims not given back: ${safeErrorMessage(queueErr)}`),
        );
    }
  }
}
