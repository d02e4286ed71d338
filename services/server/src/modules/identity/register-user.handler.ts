import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand, type HandleOptions } from '../../shared/event-sourcing/aggregate-handler.js';
import { inviteDecider } from '../invites/invite.decider.js';
import { inviteStream } from '../invites/invite.events.js';
import { PasswordHasher } from './password-hasher.js';
import { emailClaimDecider, userDecider } from './user.decider.js';
import { emailClaimStream, userStream } from './user.events.js';

export class RegisterUserCommand extends Command<{ userId: string; position: string | null }> {
  constructor(
    readonly input: {
      email: string;
      password: string;
      firstName: string;
      lastName: string;
      isAdmin: boolean;
      emailVerified: boolean;
      /** Registration by a visitor consumes one use of this code. */
      inviteCode?: string;
      /** Same id, same user: repeating a registration appends nothing. */
      userId?: string;
      actorId?: string;
      ip?: string;
    },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}

/**
 * Takes one use of the invite code (its stream decides, so racing registrations cannot overrun it), claims the e-mail
 * address (its own stream, so it is taken once), then registers the user. When the address turns out to be taken, the
 * invite use is given back.
 */
@CommandHandler(RegisterUserCommand)
export class RegisterUserHandler implements ICommandHandler<RegisterUserCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly hasher: PasswordHasher,
  ) {}

  async execute({ input, now }: RegisterUserCommand) {
    const userId = input.userId ?? randomUUID();
    const email = input.email.trim().toLowerCase();
    const at = now.toISOString();
    const options = (step: string): HandleOptions => ({
      metadata: { actorId: input.actorId ?? userId, ip: input.ip },
      commandId: `${step}:${userId}`,
      maxAttempts: 50,
    });
    const code = input.inviteCode?.trim().toUpperCase();
    if (code) {
      await handleCommand(
        this.store,
        inviteDecider,
        inviteStream(code),
        { type: 'UseInvite', data: { code, userId, email, now: at } },
        options('invite-use'),
      );
    }
    try {
      await handleCommand(
        this.store,
        emailClaimDecider,
        emailClaimStream(email),
        { type: 'ClaimEmail', data: { email, userId } },
        options('claim'),
      );
    } catch (err) {
      if (code) {
        await handleCommand(
          this.store,
          inviteDecider,
          inviteStream(code),
          { type: 'ReleaseInviteUse', data: { code, userId, now: at } },
          options('invite-release'),
        );
      }
      throw err;
    }
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
      options('register'),
    );
    return { userId, position: result.position };
  }
}
