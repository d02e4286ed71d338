import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { webhookEventsOf } from './webhook-events.js';

const at = '2026-11-27T12:00:00.000Z';
const recorded = (type: string, data: Record<string, unknown>, id = 'a0c3f1e2-5b6d-4e7f-8a9b-0c1d2e3f4a5b') =>
  ({
    id,
    streamId: 's',
    revision: 0,
    position: '1',
    type,
    data,
    metadata: {},
    createdAt: new Date(at),
  }) as RecordedEvent;
const bodies = (event: RecordedEvent, limits = new Map<string, number | null>()) =>
  webhookEventsOf(event, limits).map((e) => ({ ...e, payload: JSON.parse(e.payload) as Record<string, unknown> }));
const link = { distributionId: 'd1', ticketId: 't1', userId: 'u1' };

describe('webhook events of recorded events', () => {
  it('tells of a claim, and of the limit when the claim reaches it', () => {
    const [claimed, ...more] = bodies(recorded('LinkClicked', { ...link, n: 1, at }), new Map([['d1', 2]]));
    expect(more).toEqual([]);
    expect(claimed).toMatchObject({
      type: 'link.claimed',
      userId: 'u1',
      orderKey: 'link:d1',
      at,
      payload: {
        id: claimed!.id,
        type: 'link.claimed',
        created_at: at,
        data: { link_id: 'd1', ticket_id: 't1', claims: 1, max_clicks: 2 },
      },
    });
    const second = bodies(recorded('LinkClicked', { ...link, n: 2, at }), new Map([['d1', 2]]));
    expect(second.map((e) => [e.type, e.orderKey])).toEqual([
      ['link.claimed', 'link:d1'],
      ['link.limit_reached', 'link:d1'],
    ]);
    expect(second[1]!.payload.data).toEqual({
      link_id: 'd1',
      ticket_id: 't1',
      claims: 2,
      max_clicks: 2,
      reached_at: at,
    });
    // Two events of one recorded event, and the same ids every time (a retried batch, every endpoint).
    expect(second[0]!.id).not.toBe(second[1]!.id);
    expect(bodies(recorded('LinkClicked', { ...link, n: 2, at }), new Map([['d1', 2]])).map((e) => e.id)).toEqual(
      second.map((e) => e.id),
    );
    // No limit, or one not known: no limit_reached.
    expect(bodies(recorded('LinkClicked', { ...link, n: 5, at })).map((e) => e.type)).toEqual(['link.claimed']);
  });

  it('tells of a recall and an expiry on the link, and of tickets a sync changed on the ticket', () => {
    expect(bodies(recorded('TicketRecalled', { ...link, at }))[0]).toMatchObject({
      type: 'link.recalled',
      orderKey: 'link:d1',
      payload: { data: { link_id: 'd1', ticket_id: 't1', recalled_at: at } },
    });
    expect(bodies(recorded('LinkExpired', { ...link, expiresAt: at, at }))[0]).toMatchObject({
      type: 'link.expired',
      orderKey: 'link:d1',
      payload: { data: { link_id: 'd1', ticket_id: 't1', expires_at: at } },
    });
    const pass = {
      title: 'Match \u202Eday',
      subtitle: null,
      venueName: 'Quayside',
      section: '1',
      row: 'A',
      seat: '7',
      nextGame: null,
      nextGameDate: null,
      passId: 'secret-pass-id',
      barcode: 'secret-barcode',
    };
    const added = bodies(recorded('TicketDiscovered', { accountId: 'a1', userId: 'u1', ticketId: 't1', pass, at }))[0]!;
    expect(added).toMatchObject({ type: 'ticket.synced', orderKey: 'ticket:t1' });
    expect(added.payload.data).toEqual({
      ticket_id: 't1',
      account_id: 'a1',
      change: 'added',
      ticket: {
        title: 'Match \u202Eday',
        subtitle: null,
        venue_name: 'Quayside',
        section: '1',
        row: 'A',
        seat: '7',
        next_game: null,
        next_game_date: null,
      },
    });
    // The barcode is what gets a recipient in: it is never sent.
    expect(JSON.stringify(added.payload)).not.toContain('secret-barcode');
    expect(
      bodies(recorded('TicketGone', { accountId: 'a1', userId: 'u1', ticketId: 't1', at }))[0]!.payload.data,
    ).toMatchObject({ change: 'removed', ticket: null });
  });

  it('tells of every change of the balance, with what it is now, and of nothing else', () => {
    const u = { userId: 'u1', at };
    const change = (type: string, data: Record<string, unknown>) => bodies(recorded(type, { ...u, ...data }))[0];
    expect(change('CreditsSet', { credits: 50, previousBalance: 20 })?.payload.data).toEqual({
      balance: 50,
      change: 30,
      reason: 'set_by_admin',
    });
    expect(change('CreditsDebited', { amount: 5, balanceAfter: 45, reference: 'r' })?.payload.data).toEqual({
      balance: 45,
      change: -5,
      reason: 'links_paid',
    });
    expect(change('CreditsRefunded', { amount: 5, balanceAfter: 50, reference: 'r' })?.payload.data).toMatchObject({
      change: 5,
      reason: 'links_not_made',
    });
    expect(change('CreditsPurchased', { amount: 10, balanceAfter: 60, paymentIntentId: 'pi' })?.orderKey).toBe(
      'credits:u1',
    );
    expect(change('CreditsReversed', { amount: 10, balanceAfter: 50, reason: 'refund' })?.payload.data).toEqual({
      balance: 50,
      change: -10,
      reason: 'refund',
    });
    expect(bodies(recorded('LinkPaymentsCancelled', { ...u, reference: 'r', distributionIds: [] }))).toEqual([]);
  });
});
