import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { claimStillHeld, flowWatch } from '../../shared/event-sourcing/flow.js';
import { WalletLinkCommandMessage } from './wallet-account.command.js';
import {
  walletAccountStream,
  type WalletLinkClaimed,
  type WalletLinkReleased,
  walletLinkStream,
} from './wallet-account.events.js';

/** A link claim to look at: the claim, and its own event's id. */
export interface WalletLinkClaim {
  userId: string;
  email: string;
  accountId: string;
  claimId: string;
}

/**
 * The link flow's compensation: gives back a link claim whose account was never recorded (the flow died between the
 * two, or could not give it back itself). An account that was recorded keeps its claim until it is deleted; a claim
 * given back since (and perhaps taken again by a retry of the same link) is left alone.
 */
@Injectable()
@QueueJob()
export class ReleaseWalletLinkJob implements Job<WalletLinkClaim> {
  static readonly jobName = 'release-wallet-link';
  readonly queue = QueueName.WalletSync;
  readonly name = ReleaseWalletLinkJob.jobName;

  constructor(
    private readonly commandBus: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async run({ userId, email, accountId, claimId }: WalletLinkClaim) {
    const { events } = await this.store.readStream(walletAccountStream(accountId));
    if (events.some((e) => e.type === 'WalletAccountLinked')) return;
    const givenBack = (e: RecordedEvent) =>
      e.type === 'WalletLinkReleased' && (e.data as WalletLinkReleased['data']).accountId === accountId;
    if (!(await claimStillHeld(this.store, walletLinkStream(userId, email), claimId, givenBack))) return;
    await this.commandBus.execute(
      new WalletLinkCommandMessage(
        { type: 'ReleaseLink', data: { userId, email, accountId } },
        { actorId: userId, commandId: `release-link:${accountId}:${claimId}` },
      ),
    );
  }
}

/** Each link claim is looked at again once its link has had time to finish. */
@Injectable()
export class WalletLinkClaimsWatch extends flowWatch({
  name: 'wallet-link-claims',
  handles: ['WalletLinkClaimed'],
  job: { queue: QueueName.WalletSync, name: ReleaseWalletLinkJob.jobName },
  data: (recorded): WalletLinkClaim => {
    const { userId, email, accountId } = recorded.data as WalletLinkClaimed['data'];
    return { userId, email, accountId, claimId: recorded.id };
  },
}) {}
