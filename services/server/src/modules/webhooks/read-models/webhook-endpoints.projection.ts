import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import { WEBHOOK_EVENT_NAMES, type WebhookEvent } from '../webhooks.events.js';
import { webhookEndpoints } from '../webhooks.schema.js';

/** `webhook_endpoints`: each endpoint added, as it is now (a deleted one keeps its row, marked). */
export const webhookEndpointsProjection = rowProjection<typeof webhookEndpoints, WebhookEvent>({
  name: 'webhook-endpoints',
  table: webhookEndpoints,
  key: 'endpointId',
  handles: WEBHOOK_EVENT_NAMES,
  keyOf: (event) => event.data.endpointId,
  evolve: (row, event) => {
    if (event.type === 'WebhookEndpointCreated') {
      const d = event.data;
      return {
        endpointId: d.endpointId,
        userId: d.userId,
        url: d.url,
        events: d.events,
        enabled: true,
        disabledReason: null,
        secretPrefix: d.secretPrefix,
        previousSecretUntil: null,
        createdAt: new Date(d.at),
        deletedAt: null,
      };
    }
    if (!row) return null;
    switch (event.type) {
      case 'WebhookEndpointUpdated':
        return { ...row, url: event.data.url, events: event.data.events };
      case 'WebhookEndpointDisabled':
        return { ...row, enabled: false, disabledReason: event.data.reason };
      case 'WebhookEndpointEnabled':
        return { ...row, enabled: true, disabledReason: null };
      case 'WebhookSecretRolled':
        return {
          ...row,
          secretPrefix: event.data.secretPrefix,
          previousSecretUntil: event.data.previousSecretUntil ? new Date(event.data.previousSecretUntil) : null,
        };
      case 'WebhookEndpointDeleted':
        return { ...row, deletedAt: new Date(event.data.at) };
    }
  },
});
