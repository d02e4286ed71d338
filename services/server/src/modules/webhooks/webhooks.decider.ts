import {
  MAX_WEBHOOKS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_GRACE_MAX_SECONDS,
  type WebhookEventType,
} from '@seatlink/contracts';
import { type Decider, DomainError } from '../../shared/event-sourcing/decider.js';
import type { WebhookEvent } from './webhooks.events.js';

interface EndpointState {
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** Who turned it off (null while it is on). */
  disabledBy: 'owner' | 'seatlink' | null;
}

/** A user's endpoints as the write side knows them: those not deleted, and every id ever used. */
export interface WebhooksState {
  live: ReadonlyMap<string, EndpointState>;
  known: ReadonlySet<string>;
}

export type WebhooksCommand =
  | {
      type: 'CreateWebhookEndpoint';
      data: {
        userId: string;
        endpointId: string;
        url: string;
        events: WebhookEventType[];
        secretSealed: string;
        secretPrefix: string;
        now: string;
      };
    }
  | {
      type: 'UpdateWebhookEndpoint';
      data: {
        userId: string;
        endpointId: string;
        url?: string;
        events?: WebhookEventType[];
        enabled?: boolean;
        now: string;
      };
    }
  /** Seatlink stops an endpoint that failed for too long (the delivery job); a no-op when it is off already. */
  | { type: 'DisableFailingWebhookEndpoint'; data: { userId: string; endpointId: string; reason: string; now: string } }
  | {
      type: 'RollWebhookSecret';
      /** `graceSeconds`: how long the secret it replaces still signs beside the new one (0: not at all). */
      data: {
        userId: string;
        endpointId: string;
        secretSealed: string;
        secretPrefix: string;
        graceSeconds: number;
        now: string;
      };
    }
  | { type: 'DeleteWebhookEndpoint'; data: { userId: string; endpointId: string; now: string } };

const notFound = () => new DomainError(WEBHOOK_MESSAGES.notFound, 'WEBHOOK_NOT_FOUND', 404);
const sameEvents = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((e, i) => e === b[i]);

export const webhooksDecider: Decider<WebhooksState, WebhooksCommand, WebhookEvent> = {
  initialState: () => ({ live: new Map(), known: new Set() }),
  evolve: (state, event) => {
    const live = new Map(state.live);
    const id = event.data.endpointId;
    const now = live.get(id);
    switch (event.type) {
      case 'WebhookEndpointCreated':
        live.set(id, { url: event.data.url, events: event.data.events, enabled: true, disabledBy: null });
        return { live, known: new Set(state.known).add(id) };
      case 'WebhookEndpointUpdated':
        if (now) live.set(id, { ...now, url: event.data.url, events: event.data.events });
        break;
      case 'WebhookEndpointDisabled':
        if (now) live.set(id, { ...now, enabled: false, disabledBy: event.data.by });
        break;
      case 'WebhookEndpointEnabled':
        if (now) live.set(id, { ...now, enabled: true, disabledBy: null });
        break;
      case 'WebhookEndpointDeleted':
        live.delete(id);
        break;
      case 'WebhookSecretRolled':
        break;
    }
    return { ...state, live };
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateWebhookEndpoint': {
        const { now, ...data } = command.data;
        // A retried request with the same endpoint id made it already.
        if (state.known.has(data.endpointId)) return [];
        if (state.live.size >= MAX_WEBHOOKS) throw new DomainError(WEBHOOK_MESSAGES.limit, 'WEBHOOK_LIMIT', 409);
        return [{ type: 'WebhookEndpointCreated', data: { ...data, at: now } }];
      }
      case 'UpdateWebhookEndpoint': {
        const { userId, endpointId, now: at } = command.data;
        const endpoint = state.live.get(endpointId);
        if (!endpoint) throw notFound();
        const url = command.data.url ?? endpoint.url;
        const events = command.data.events ?? endpoint.events;
        const out: WebhookEvent[] = [];
        if (url !== endpoint.url || !sameEvents(events, endpoint.events)) {
          out.push({ type: 'WebhookEndpointUpdated', data: { userId, endpointId, url, events, at } });
        }
        const enabled = command.data.enabled;
        if (enabled === true && !endpoint.enabled) {
          out.push({ type: 'WebhookEndpointEnabled', data: { userId, endpointId, at } });
        } else if (enabled === false && endpoint.disabledBy !== 'owner') {
          // Off by its owner's choice: what Seatlink kept for it while it was failing is not kept any more.
          out.push({ type: 'WebhookEndpointDisabled', data: { userId, endpointId, by: 'owner', reason: null, at } });
        }
        return out;
      }
      case 'DisableFailingWebhookEndpoint': {
        const { userId, endpointId, reason, now: at } = command.data;
        const endpoint = state.live.get(endpointId);
        if (!endpoint || !endpoint.enabled) return [];
        return [{ type: 'WebhookEndpointDisabled', data: { userId, endpointId, by: 'seatlink', reason, at } }];
      }
      case 'RollWebhookSecret': {
        const { now, graceSeconds, ...data } = command.data;
        if (!state.live.has(data.endpointId)) throw notFound();
        if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > WEBHOOK_SECRET_GRACE_MAX_SECONDS) {
          throw new DomainError(WEBHOOK_MESSAGES.grace, 'WEBHOOK_GRACE_INVALID', 400);
        }
        const previousSecretUntil =
          graceSeconds > 0 ? new Date(new Date(now).getTime() + graceSeconds * 1000).toISOString() : null;
        return [{ type: 'WebhookSecretRolled', data: { ...data, previousSecretUntil, at: now } }];
      }
      case 'DeleteWebhookEndpoint': {
        const { userId, endpointId, now } = command.data;
        if (!state.live.has(endpointId)) throw notFound();
        return [{ type: 'WebhookEndpointDeleted', data: { userId, endpointId, at: now } }];
      }
    }
  },
};
