import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { evolveRoute } from './webhook-fanout.reaction.js';
import { webhookSignature } from './webhook-sender.js';
import type { WebhookEvent } from './webhooks.events.js';

const stripe = new Stripe('sk_test_verifier');

describe('a rolled secret’s grace (docs/reference.md#webhooks)', () => {
  const ids = { userId: 'u1', endpointId: 'e1' };
  const created: WebhookEvent = {
    type: 'WebhookEndpointCreated',
    data: {
      ...ids,
      url: 'https://example.com/h',
      events: ['link.claimed'],
      secretSealed: 'sealed-1',
      secretPrefix: 'whsec_AbCd',
      at: '2026-11-27T12:00:00.000Z',
    },
  };
  const rolled = (secretSealed: string, previousSecretUntil: string | null | undefined): WebhookEvent => ({
    type: 'WebhookSecretRolled',
    data: {
      ...ids,
      secretSealed,
      secretPrefix: 'whsec_EfGh',
      ...(previousSecretUntil === undefined ? {} : { previousSecretUntil }),
      at: '2026-11-27T12:00:00.000Z',
    },
  });
  const fold = (events: WebhookEvent[]) =>
    events.reduce<ReturnType<typeof evolveRoute>>((route, event) => evolveRoute(route, event), null);

  it('keeps the replaced secret beside the new one until the time the event recorded, however often it is folded', () => {
    const events = [created, rolled('sealed-2', '2026-11-27T13:00:00.000Z')];
    const route = fold(events);
    expect(route).toMatchObject({
      secretSealed: 'sealed-2',
      previousSecretSealed: 'sealed-1',
      previousSecretUntil: new Date('2026-11-27T13:00:00.000Z'),
    });
    // A rebuild from the same events (whenever it runs) signs the same way.
    expect(fold(events)).toEqual(route);
    // Rolled again without a grace: the new secret alone; with one, the secret it replaces (never the first one).
    expect(fold([...events, rolled('sealed-3', null)])).toMatchObject({
      secretSealed: 'sealed-3',
      previousSecretSealed: null,
      previousSecretUntil: null,
    });
    expect(fold([...events, rolled('sealed-3', '2026-11-27T14:00:00.000Z')])).toMatchObject({
      secretSealed: 'sealed-3',
      previousSecretSealed: 'sealed-2',
    });
    // A roll recorded before graces existed: the old secret stopped at once.
    expect(fold([created, rolled('sealed-2', undefined)])).toMatchObject({
      secretSealed: 'sealed-2',
      previousSecretSealed: null,
    });
  });

  it('signs with each secret in one header, the new one first, so that Stripe’s verifier accepts either', () => {
    const body = JSON.stringify({ id: 'evt', type: 'webhook.test', created_at: '', data: { n: '\u0000\u{1F600}' } });
    const header = webhookSignature(['whsec_new', 'whsec_old'], body, new Date());
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const [, fresh, old] = header.split(',');
    expect(webhookSignature('whsec_new', body, new Date())).toContain(fresh!);
    expect(webhookSignature('whsec_old', body, new Date())).toContain(old!);
    for (const secret of ['whsec_new', 'whsec_old']) {
      expect(stripe.webhooks.constructEvent(body, header, secret).id).toBe('evt');
    }
    expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_other')).toThrow();
    expect(webhookSignature(['whsec_new'], body, new Date(0))).toBe(webhookSignature('whsec_new', body, new Date(0)));
  });
});
