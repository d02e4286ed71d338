import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import type { CommandMeta } from '../../shared/event-sourcing/aggregate-command.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import { claimStillHeld, flowWatch } from '../../shared/event-sourcing/flow.js';
import { InviteCommandMessage, type InviteCodeUsed, inviteStream } from '../invites/index.js';
import { EmailClaimCommandMessage } from './user.command.js';
import { emailClaimDecider } from './user.decider.js';
import { type EmailClaimed, type EmailClaimEvent, emailClaimStream, userStream } from './user.events.js';

/** What a registration claimed, to give back if it did not register. */
export interface RegistrationClaims {
  userId: string;
  email: string;
  inviteCode?: string;
  at: string;
  /**
   * This attempt's own id. A retried registration (same Idempotency-Key, same user id) takes and gives back its
   * claims again: its steps must not be mistaken for the earlier attempt's, which a give-back may have cancelled.
   */
  attempt: string;
}

/** What a registration that failed took. */
export interface Taken {
  invite: boolean;
  email: boolean;
}

/** The user holding an e-mail address (registered or on the way), from the address's own stream; null when free. */
export async function emailHolder(store: EventStore, email: string): Promise<string | null> {
  const { events } = await store.readStream(emailClaimStream(email));
  return fold(
    emailClaimDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as EmailClaimEvent),
  ).claimedBy;
}

/**
 * Whether the user was registered. The last step of a registration may have been written even though its answer was
 * lost: a registered user keeps what it claimed.
 */
async function registered(store: EventStore, userId: string): Promise<boolean> {
  const { events } = await store.readStream(userStream(userId));
  return events.some((e) => e.type === 'UserRegistered');
}

/** Gives back what a failed registration claimed: the e-mail address and the invite use. Idempotent. */
export async function giveBackClaims(
  commandBus: CommandBus,
  store: EventStore,
  claims: RegistrationClaims,
  taken: Taken,
) {
  const meta = (step: string): CommandMeta => ({
    actorId: claims.userId,
    commandId: `${step}:${claims.userId}:${claims.attempt}`,
  });
  if (await registered(store, claims.userId)) return;
  if (taken.email) {
    await commandBus.execute(
      new EmailClaimCommandMessage(
        { type: 'ReleaseEmail', data: { email: claims.email, userId: claims.userId } },
        meta('release-claim'),
      ),
    );
  }
  if (!taken.invite || !claims.inviteCode) return;
  await commandBus.execute(
    new InviteCommandMessage(
      { type: 'ReleaseInviteUse', data: { code: claims.inviteCode, userId: claims.userId, now: claims.at } },
      meta('invite-release'),
    ),
  );
}

/** A registration's claim found by RegistrationClaimsWatch: the claim's own event, looked at once it is due. */
export interface FoundClaim {
  userId: string;
  email: string;
  /** Set for an invite use; absent for an address. */
  inviteCode?: string;
  at: string;
  claimId: string;
}

/**
 * Gives back one claim of a registration that did not register and never gave it back (its process died half-way):
 * the address, or the invite use — except the use of a registration that met an address someone else holds, which
 * stays spent as a visitor's registration with a taken address leaves it. A claim given back since (and perhaps taken
 * again by a retry of the same registration) is left alone.
 */
export async function giveBackFound(commandBus: CommandBus, store: EventStore, claim: FoundClaim) {
  const { userId, email, inviteCode, claimId } = claim;
  const meta: CommandMeta = { actorId: userId, commandId: `give-back:${claimId}` };
  if (await registered(store, userId)) return;
  const givenBack = (type: string) => (e: RecordedEvent) =>
    e.type === type && (e.data as { userId?: string }).userId === userId;
  if (!inviteCode) {
    if (!(await claimStillHeld(store, emailClaimStream(email), claimId, givenBack('EmailReleased')))) return;
    await commandBus.execute(new EmailClaimCommandMessage({ type: 'ReleaseEmail', data: { email, userId } }, meta));
    return;
  }
  if (!(await claimStillHeld(store, inviteStream(inviteCode), claimId, givenBack('InviteCodeUseReleased')))) return;
  const holder = await emailHolder(store, email);
  if (holder !== null && holder !== userId) return;
  await commandBus.execute(
    new InviteCommandMessage({ type: 'ReleaseInviteUse', data: { code: inviteCode, userId, now: claim.at } }, meta),
  );
}

type ReleaseData = (RegistrationClaims & { taken: Taken }) | FoundClaim;

/**
 * The registration flow's compensation: gives back what a registration claimed and did not register with — for one
 * that failed and could not give it back at once (`taken`), or one whose claim RegistrationClaimsWatch found.
 */
@Injectable()
@QueueJob()
export class ReleaseRegistrationClaimsJob implements Job<ReleaseData> {
  static readonly jobName = 'release-registration-claims';
  readonly queue = QueueName.Identity;
  readonly name = ReleaseRegistrationClaimsJob.jobName;

  constructor(
    private readonly commandBus: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async run(data: ReleaseData) {
    if ('claimId' in data) await giveBackFound(this.commandBus, this.store, data);
    else await giveBackClaims(this.commandBus, this.store, data, data.taken);
  }
}

/**
 * A registration's claims (its invite use, its address) are the record that it started: each one is looked at again
 * once the registration has had time to finish.
 */
@Injectable()
export class RegistrationClaimsWatch extends flowWatch({
  name: 'registration-claims',
  handles: ['InviteCodeUsed', 'EmailClaimed'],
  job: { queue: QueueName.Identity, name: ReleaseRegistrationClaimsJob.jobName },
  data: (recorded): FoundClaim => {
    const event = { type: recorded.type, data: recorded.data } as InviteCodeUsed | EmailClaimed;
    const { userId, email } = event.data;
    return event.type === 'InviteCodeUsed'
      ? { userId, email, inviteCode: event.data.code, at: event.data.at, claimId: recorded.id }
      : { userId, email, at: recorded.createdAt.toISOString(), claimId: recorded.id };
  },
}) {}
