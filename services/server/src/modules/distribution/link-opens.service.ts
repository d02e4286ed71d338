import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { LinkState } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, queryRows } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { clock } from '../../shared/clock.js';
import { openStream } from './distribution.events.js';
import { LinkNotFoundError } from './link-claims.service.js';
import { linkOpensDecider } from './link-opens.decider.js';

/** Namespace of LinkOpened event ids: one id per link and device, so an append repeated writes nothing twice. */
const OPEN_EVENT_NAMESPACE = '5f3c1e9a-2b7d-4c8e-9a61-7d0b4e2f8c35';

/**
 * The hash a device is known by on one link: sha256 of the link and the page's device id, so the id itself is kept
 * nowhere and one device cannot be followed from one link to another.
 */
export const deviceHashOf = (distributionId: string, deviceId: string) =>
  createHash('sha256').update(`link-open:${distributionId}:${deviceId}`).digest('base64url');

interface OpenedLinkRow {
  distribution_id: string;
  ticket_id: string;
  user_id: string;
  state: LinkState;
}

/** What the open call knows of the recipient. */
export interface Opener {
  deviceId: string;
  device: string | null;
  referrer: string | null;
}

/**
 * Opens of links (docs/reference.md "Link"): the recipient page's POST /v1/links/{code}/opens. The link's first open
 * by a device is a LinkOpened event on the link's open stream; the device's row in `link_open_devices` is inserted in
 * the append's transaction, and the event appended only when the row is new, so opens of one device at once (a burst
 * of reloads) make one event. Answers whether an event was recorded; 404 for an unknown code.
 */
@Injectable()
export class LinkOpens {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async open(code: string, opener: Opener): Promise<boolean> {
    const [link] = await this.database.query<OpenedLinkRow>(
      `select c.distribution_id, c.ticket_id, c.user_id,
              seatlink_link_state(c.recalled_at is not null, t.id is not null, c.expires_at, c.max_clicks, c.clicks,
                                  now()) as state
       from link_counters c left join tickets t on t.id = c.ticket_id
       where c.code = $1`,
      [code],
      'seatlink_link_open',
    );
    if (!link) throw new LinkNotFoundError();
    const distributionId = link.distribution_id;
    const deviceHash = deviceHashOf(distributionId, opener.deviceId);
    const command = {
      link: { distributionId, ticketId: link.ticket_id, userId: link.user_id, state: link.state },
      deviceHash,
      device: opener.device,
      referrer: opener.referrer,
      at: clock.now().toISOString(),
    };
    // A withdrawn link records nothing (and keeps no device).
    if (linkOpensDecider.decide(command, linkOpensDecider.initialState()).length === 0) return false;
    const after: Array<() => void> = [];
    const recorded = await this.database.db.transaction(async (tx) => {
      const inserted = await queryRows<{ fresh: boolean }>(
        tx,
        sql`insert into link_open_devices (distribution_id, device_hash, opened_at)
            values (${distributionId}, ${deviceHash}, ${command.at}::timestamptz)
            on conflict do nothing returning true as fresh`,
      );
      const state = { devices: new Set(inserted.length > 0 ? [] : [deviceHash]) };
      const events = linkOpensDecider.decide(command, state);
      if (events.length === 0) return false;
      await this.store
        .withinTransaction(tx, (work) => after.push(work))
        .appendToStream(
          openStream(distributionId),
          events.map((event) => ({
            id: uuidv5(`${distributionId}:${deviceHash}`, OPEN_EVENT_NAMESPACE),
            type: event.type,
            data: event.data,
          })),
          { expectedRevision: 'any' },
        );
      return true;
    });
    for (const work of after) work();
    return recorded;
  }
}
