import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { UserAccounts } from './user-accounts.service.js';
import { UserCommandMessage } from './user.command.js';

/** What a visitor asked for by e-mail address; the job finds whether such a user exists. */
export interface EmailRequestData {
  /** Made when the request is queued: its command's id (a queue's own job ids may start again after a reset). */
  requestId: string;
  email: string;
  /** When it was asked (ISO 8601). */
  at: string;
  ip?: string;
}

/** Tries and backoff of the identity requests (the database may be down for a moment). */
export const IDENTITY_REQUEST_OPTIONS = { attempts: 5, backoff: { type: 'exponential' as const, delayMs: 1000 } };

/**
 * A request made by e-mail address, carried out behind an answer that was the same for every address (no timing tells
 * whether it exists): the job finds the user and runs the command; an unknown address does nothing. The command id comes
 * from the request's id, so a job run twice asks once.
 */
@Injectable()
abstract class EmailRequestJob implements Job<EmailRequestData> {
  readonly queue = QueueName.Identity;
  abstract readonly name: string;

  constructor(
    private readonly accounts: UserAccounts,
    private readonly commandBus: CommandBus,
  ) {}

  protected abstract command(userId: string, at: string): UserCommandMessage['command'];

  async run(data: EmailRequestData) {
    const user = await this.accounts.byEmail(data.email);
    if (!user) return;
    await this.commandBus.execute(
      new UserCommandMessage(this.command(user.userId!, data.at), {
        actorId: user.userId!,
        ip: data.ip,
        commandId: `request:${data.requestId}`,
      }),
    );
  }
}

/** A forgotten password: PasswordResetRequested for a user who exists and is not banned; a reaction mails the link. */
@Injectable()
@QueueJob()
export class RequestPasswordResetJob extends EmailRequestJob {
  static readonly jobName = 'request-password-reset';
  readonly name = RequestPasswordResetJob.jobName;

  protected command(userId: string, at: string): UserCommandMessage['command'] {
    return { type: 'RequestPasswordReset', data: { userId, by: userId, now: at } };
  }
}

/** A new verification link: VerificationEmailRequested for an unverified user; a reaction mails it. */
@Injectable()
@QueueJob()
export class RequestVerificationEmailJob extends EmailRequestJob {
  static readonly jobName = 'request-verification-email';
  readonly name = RequestVerificationEmailJob.jobName;

  protected command(userId: string, at: string): UserCommandMessage['command'] {
    return { type: 'RequestVerificationEmail', data: { userId, now: at } };
  }
}

/** A sign-in that needed a second proof, with the right password: the user to send a one-time link to. */
export interface SignInLinkRequestData {
  requestId: string;
  userId: string;
  at: string;
  ip?: string;
}

/**
 * SignInLinkRequested for a user who may sign in (a reaction mails the link). Queued, not run in the sign-in call, so
 * the right password is answered as quickly as a wrong one (the answers are the same). Run twice, it asks once.
 */
@Injectable()
@QueueJob()
export class RequestSignInLinkJob implements Job<SignInLinkRequestData> {
  static readonly jobName = 'request-sign-in-link';
  readonly queue = QueueName.Identity;
  readonly name = RequestSignInLinkJob.jobName;

  constructor(private readonly commandBus: CommandBus) {}

  async run(data: SignInLinkRequestData) {
    await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RequestSignInLink', data: { userId: data.userId, now: data.at } },
        { actorId: data.userId, ip: data.ip, commandId: `request:${data.requestId}` },
      ),
    );
  }
}
