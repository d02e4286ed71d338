import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { ADMINS_ROOM, type LinkClaimant } from '@seatlink/contracts';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';

/** At most one live update per link per this many milliseconds (the first of a burst goes at once). */
export const CLICK_PUSH_WINDOW_MS = 250;

interface Pending {
  userId: string;
  ticketId: string;
  clicks: number;
  /** Who made the latest of those clicks. */
  claimedBy: LinkClaimant | undefined;
  timer: NodeJS.Timeout | null;
  dirty: boolean;
}

/**
 * Tells the owner's dashboards (and admins) a link was clicked, coalesced per link: a popular link sends a few
 * updates a second with the latest count, not one per click.
 */
@Injectable()
export class ClickPusher implements BeforeApplicationShutdown {
  private readonly links = new Map<string, Pending>();

  constructor(@Inject(REALTIME_PUBLISHER) private readonly publisher: RealtimePublisher) {}

  clicked(click: {
    userId: string;
    ticketId: string;
    distributionId: string;
    clicks: number;
    claimedBy?: LinkClaimant;
  }) {
    const pending = this.links.get(click.distributionId);
    if (pending) {
      if (click.clicks > pending.clicks) pending.claimedBy = click.claimedBy ?? pending.claimedBy;
      pending.clicks = Math.max(pending.clicks, click.clicks);
      pending.dirty = true;
      return;
    }
    const fresh: Pending = {
      userId: click.userId,
      ticketId: click.ticketId,
      clicks: click.clicks,
      claimedBy: click.claimedBy,
      timer: null,
      dirty: false,
    };
    this.links.set(click.distributionId, fresh);
    this.send(click.distributionId, fresh);
    this.wait(click.distributionId, fresh);
  }

  private wait(distributionId: string, pending: Pending) {
    pending.timer = setTimeout(() => {
      if (pending.dirty) {
        pending.dirty = false;
        this.send(distributionId, pending);
        this.wait(distributionId, pending);
      } else {
        this.links.delete(distributionId);
      }
    }, CLICK_PUSH_WINDOW_MS);
    pending.timer.unref();
  }

  private send(distributionId: string, pending: Pending) {
    const payload = {
      user_id: pending.userId,
      ticket_id: pending.ticketId,
      distribution_id: distributionId,
      clicks: pending.clicks,
      ...(pending.claimedBy && { claimed_by: pending.claimedBy }),
    };
    this.publisher.publish([
      { to: { userId: pending.userId }, event: 'distribution.updated', payload },
      { to: ADMINS_ROOM, event: 'distribution.updated', payload },
    ]);
  }

  beforeApplicationShutdown() {
    for (const [distributionId, pending] of this.links) {
      if (pending.timer) clearTimeout(pending.timer);
      if (pending.dirty) this.send(distributionId, pending);
    }
    this.links.clear();
  }
}
