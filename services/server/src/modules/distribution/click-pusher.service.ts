import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { ADMINS_ROOM, type LinkClaimant, type LinkClicks } from '@seatlink/contracts';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import type { LiveUpdate } from '../../infra/subscriptions/subscription.js';

/** At most one push of clicks per room per this many milliseconds (the first after a quiet spell goes at once). */
export const CLICK_PUSH_WINDOW_MS = 250;

type Room = LiveUpdate['to'];

interface RoomState {
  to: Room;
  /** Each link clicked since the last push, at its highest count. */
  due: Map<string, LinkClicks>;
  /** The count each link had in a push of this busy spell: a lower one that arrives late is not pushed. */
  sent: Map<string, number>;
  timer: NodeJS.Timeout | null;
}

/**
 * Tells the owner's dashboards (and admins) links were clicked, coalesced per room: one push per window carries every
 * link clicked since the last, at its latest count (`distributions.clicked`). A dashboard then gets a few pushes a
 * second however many claims a second its links take, and the server writes a few messages per socket, not one per
 * click.
 */
@Injectable()
export class ClickPusher implements BeforeApplicationShutdown {
  private readonly rooms = new Map<string, RoomState>();

  constructor(@Inject(REALTIME_PUBLISHER) private readonly publisher: RealtimePublisher) {}

  clicked(click: {
    userId: string;
    ticketId: string;
    distributionId: string;
    clicks: number;
    claimedBy?: LinkClaimant;
  }) {
    const link: LinkClicks = {
      user_id: click.userId,
      ticket_id: click.ticketId,
      distribution_id: click.distributionId,
      clicks: click.clicks,
      ...(click.claimedBy && { claimed_by: click.claimedBy }),
    };
    this.add(`user:${click.userId}`, { userId: click.userId }, link);
    this.add(ADMINS_ROOM, ADMINS_ROOM, link);
  }

  private add(key: string, to: Room, link: LinkClicks) {
    let room = this.rooms.get(key);
    const fresh = !room;
    if (!room) {
      room = { to, due: new Map(), sent: new Map(), timer: null };
      this.rooms.set(key, room);
    }
    const id = link.distribution_id;
    const due = room.due.get(id);
    if (link.clicks <= (due?.clicks ?? room.sent.get(id) ?? 0)) return;
    room.due.set(id, { ...link, ...(!link.claimed_by && due?.claimed_by && { claimed_by: due.claimed_by }) });
    if (fresh) this.push(key, room);
  }

  /** Pushes what is due and waits a window; a window with nothing due ends the room's busy spell. */
  private push(key: string, room: RoomState) {
    if (room.due.size === 0) {
      this.rooms.delete(key);
      return;
    }
    const links = [...room.due.values()];
    room.due.clear();
    for (const link of links) room.sent.set(link.distribution_id, link.clicks);
    this.publisher.publish([{ to: room.to, event: 'distributions.clicked', payload: { links } }]);
    room.timer = setTimeout(() => this.push(key, room), CLICK_PUSH_WINDOW_MS);
    room.timer.unref();
  }

  beforeApplicationShutdown() {
    for (const room of this.rooms.values()) {
      if (room.timer) clearTimeout(room.timer);
      if (room.due.size > 0) {
        this.publisher.publish([
          { to: room.to, event: 'distributions.clicked', payload: { links: [...room.due.values()] } },
        ]);
      }
    }
    this.rooms.clear();
  }
}
