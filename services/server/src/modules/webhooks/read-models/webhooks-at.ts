import type { WebhookEventType } from '@seatlink/contracts';
import type { EventStore } from '../../../infra/event-store/event-store.port.js';
import { type WebhookEvent, webhooksStream } from '../webhooks.events.js';

/** A webhook endpoint as it stood at a moment (not deleted). */
export interface WebhookAt {
  endpointId: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
}

/** The user's webhook endpoints at a moment, oldest first, from their stream up to it. */
export async function webhooksAt(store: EventStore, userId: string, at: Date): Promise<WebhookAt[]> {
  const endpoints = new Map<string, WebhookAt>();
  for (const recorded of (await store.readStream(webhooksStream(userId))).events) {
    if (recorded.createdAt > at) break;
    const event = { type: recorded.type, data: recorded.data } as WebhookEvent;
    const { endpointId } = event.data;
    const known = endpoints.get(endpointId);
    switch (event.type) {
      case 'WebhookEndpointCreated':
      case 'WebhookEndpointUpdated':
        endpoints.set(endpointId, {
          endpointId,
          url: event.data.url,
          events: event.data.events,
          enabled: known?.enabled ?? true,
        });
        break;
      case 'WebhookEndpointDisabled':
      case 'WebhookEndpointEnabled':
        if (known) endpoints.set(endpointId, { ...known, enabled: event.type === 'WebhookEndpointEnabled' });
        break;
      case 'WebhookEndpointDeleted':
        endpoints.delete(endpointId);
        break;
      case 'WebhookSecretRolled':
        break;
    }
  }
  return [...endpoints.values()];
}
