import type { LinkState } from '@seatlink/contracts';
import type { Decider } from '../../shared/event-sourcing/decider.js';
import type { LinkOpened } from './distribution.events.js';

/**
 * A recipient page's open of a link, as the open call saw it: the link it names (null: no such link) and its state
 * then, the device (a keyed hash of its id, and its class) and where the recipient came from. Time comes with it.
 */
export interface OpenLink {
  link: { distributionId: string; ticketId: string; userId: string; state: LinkState } | null;
  deviceHash: string;
  device: string | null;
  referrer: string | null;
  at: string;
}

/** The devices that have opened the link (their hashes). */
export interface LinkOpensState {
  devices: ReadonlySet<string>;
}

/**
 * A link's opens (docs/reference.md "Link"): the first open of a link by a device is a LinkOpened event, a device's
 * next opens are none; a link that does not exist or was withdrawn (its ticket gone too) records nothing. Expired
 * links and links at their limit still count: their recipients did open them. The open call keeps the devices in
 * `link_open_devices` (one row per link and device, written in the append's transaction), which is how concurrent
 * opens of one device make one event.
 */
export const linkOpensDecider: Decider<LinkOpensState, OpenLink, LinkOpened> = {
  initialState: () => ({ devices: new Set() }),
  evolve: (state, event) => ({ devices: new Set([...state.devices, event.data.deviceHash]) }),
  decide(command, state) {
    const { link } = command;
    if (!link || link.state === 'recalled') return [];
    if (state.devices.has(command.deviceHash)) return [];
    return [
      {
        type: 'LinkOpened',
        data: {
          distributionId: link.distributionId,
          ticketId: link.ticketId,
          userId: link.userId,
          deviceHash: command.deviceHash,
          device: command.device,
          referrer: command.referrer,
          at: command.at,
        },
      },
    ];
  },
};
