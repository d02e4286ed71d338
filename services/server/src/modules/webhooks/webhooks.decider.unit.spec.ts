import { MAX_WEBHOOKS, WEBHOOK_MESSAGES } from '@seatlink/contracts';
import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { webhooksDecider } from './webhooks.decider.js';
import type { WebhookEvent } from './webhooks.events.js';

describe('webhooks decider', () => {
  const spec = deciderSpec(webhooksDecider);
  const now = '2026-11-27T12:00:00.000Z';
  const endpoint = (endpointId: string) => ({
    userId: 'u1',
    endpointId,
    url: `https://example.com/${endpointId}`,
    events: ['link.claimed' as const],
    secretSealed: `sealed-${endpointId}`,
    secretPrefix: 'whsec_AbCd',
  });
  const ids = { userId: 'u1', endpointId: 'e1' };
  const create = (endpointId: string) => ({
    type: 'CreateWebhookEndpoint' as const,
    data: { ...endpoint(endpointId), now },
  });
  const created = (endpointId: string): WebhookEvent => ({
    type: 'WebhookEndpointCreated',
    data: { ...endpoint(endpointId), at: now },
  });
  const update = (data: { url?: string; events?: ['link.claimed' | 'link.expired']; enabled?: boolean }) => ({
    type: 'UpdateWebhookEndpoint' as const,
    data: { ...ids, ...data, now },
  });
  const disabledBy = (by: 'owner' | 'seatlink', reason: string | null = null): WebhookEvent => ({
    type: 'WebhookEndpointDisabled',
    data: { ...ids, by, reason, at: now },
  });
  const deleted: WebhookEvent = { type: 'WebhookEndpointDeleted', data: { ...ids, at: now } };

  it('adds an endpoint, once per id (a retry adds nothing)', () => {
    spec
      .given([])
      .when(create('e1'))
      .then([created('e1')]);
    spec
      .given([created('e1')])
      .when(create('e1'))
      .then([]);
  });

  it(`refuses an endpoint beyond ${MAX_WEBHOOKS}; a deleted one makes room`, () => {
    const ten = Array.from({ length: MAX_WEBHOOKS }, (_, i) => created(`e${i}`));
    spec.given(ten).when(create('x')).thenThrows({ message: WEBHOOK_MESSAGES.limit });
    spec
      .given([...ten, { type: 'WebhookEndpointDeleted', data: { userId: 'u1', endpointId: 'e3', at: now } }])
      .when(create('x'))
      .then([created('x')]);
  });

  it('records what changed, and nothing when nothing did', () => {
    spec
      .given([created('e1')])
      .when(update({ events: ['link.expired'] }))
      .then([
        {
          type: 'WebhookEndpointUpdated',
          data: { ...ids, url: 'https://example.com/e1', events: ['link.expired'], at: now },
        },
      ]);
    spec
      .given([created('e1')])
      .when(update({ url: 'https://example.com/e1', enabled: true }))
      .then([]);
    spec
      .given([created('e1')])
      .when(update({ enabled: false }))
      .then([disabledBy('owner')]);
    spec
      .given([created('e1'), disabledBy('seatlink', 'failing')])
      .when(update({ enabled: true }))
      .then([{ type: 'WebhookEndpointEnabled', data: { ...ids, at: now } }]);
    // Off by Seatlink, then by its owner: from then on nothing is kept for it; off by its owner twice: nothing new.
    spec
      .given([created('e1'), disabledBy('seatlink', 'failing')])
      .when(update({ enabled: false }))
      .then([disabledBy('owner')]);
    spec
      .given([created('e1'), disabledBy('owner')])
      .when(update({ enabled: false }))
      .then([]);
  });

  it('lets Seatlink disable a failing endpoint once, and never one already off or gone', () => {
    const disable = {
      type: 'DisableFailingWebhookEndpoint' as const,
      data: { ...ids, reason: 'failing', now },
    };
    spec
      .given([created('e1')])
      .when(disable)
      .then([disabledBy('seatlink', 'failing')]);
    spec
      .given([created('e1'), disabledBy('owner')])
      .when(disable)
      .then([]);
    spec
      .given([created('e1'), deleted])
      .when(disable)
      .then([]);
  });

  it('rolls the secret and deletes only a live endpoint of the user', () => {
    const roll = {
      type: 'RollWebhookSecret' as const,
      data: { ...ids, secretSealed: 'sealed-2', secretPrefix: 'whsec_EfGh', graceSeconds: 0, now },
    };
    spec
      .given([created('e1')])
      .when(roll)
      .then([
        {
          type: 'WebhookSecretRolled',
          data: { ...ids, secretSealed: 'sealed-2', secretPrefix: 'whsec_EfGh', previousSecretUntil: null, at: now },
        },
      ]);
    spec
      .given([created('e1'), deleted])
      .when(roll)
      .thenThrows({ code: 'WEBHOOK_NOT_FOUND' });
    spec
      .given([])
      .when({ type: 'DeleteWebhookEndpoint', data: { ...ids, now } })
      .thenThrows({ code: 'WEBHOOK_NOT_FOUND' });
    spec
      .given([created('e1'), deleted])
      .when(update({ enabled: false }))
      .thenThrows({ code: 'WEBHOOK_NOT_FOUND' });
  });

  it('records until when the old secret still signs when rolled with a grace (docs/reference.md#webhooks)', () => {
    const roll = (graceSeconds: number) => ({
      type: 'RollWebhookSecret' as const,
      data: { ...ids, secretSealed: 'sealed-2', secretPrefix: 'whsec_EfGh', graceSeconds, now },
    });
    const rolled = (previousSecretUntil: string | null): WebhookEvent => ({
      type: 'WebhookSecretRolled',
      data: { ...ids, secretSealed: 'sealed-2', secretPrefix: 'whsec_EfGh', previousSecretUntil, at: now },
    });
    spec
      .given([created('e1')])
      .when(roll(3600))
      .then([rolled('2026-11-27T13:00:00.000Z')]);
    spec
      .given([created('e1')])
      .when(roll(86_400))
      .then([rolled('2026-11-28T12:00:00.000Z')]);
    spec
      .given([created('e1')])
      .when(roll(1))
      .then([rolled('2026-11-27T12:00:01.000Z')]);
    // Rolled again within a grace: the new roll says alone what signs (here, the new secret only).
    spec
      .given([created('e1'), rolled('2026-11-27T13:00:00.000Z')])
      .when(roll(0))
      .then([rolled(null)]);
  });

  it('refuses a grace that is not a whole number of seconds from 0 to a day', () => {
    for (const graceSeconds of [-1, 86_401, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e21, -0.0001]) {
      spec
        .given([created('e1')])
        .when({
          type: 'RollWebhookSecret',
          data: { ...ids, secretSealed: 'sealed-2', secretPrefix: 'whsec_EfGh', graceSeconds, now },
        })
        .thenThrows({ code: 'WEBHOOK_GRACE_INVALID', message: WEBHOOK_MESSAGES.grace });
    }
  });
});
