import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
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

/** Claims the e-mail address (its own stream, so it can be taken once), then registers the user. */
@CommandHandler(RegisterUserCommand)
export class RegisterUserHandler implements ICommandHandler<RegisterUserCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly hasher: PasswordHasher,
  ) {}

  async execute({ input, now }: RegisterUserCommand) {
    const userId = input.userId ?? randomUUID();
    const email = input.email.trim().toLowerCase();
    const metadata = { actorId: input.actorId ?? userId, ip: input.ip };
    await handleCommand(
      this.store,
      emailClaimDecider,
      emailClaimStream(email),
      { type: 'ClaimEmail', data: { email, userId } },
      { metadata, commandId: `claim:${userId}` },
    );
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
          now: now.toISOString(),
        },
      },
      { metadata, commandId: `register:${userId}` },
    );
    return { userId, position: result.position };
  }
}
