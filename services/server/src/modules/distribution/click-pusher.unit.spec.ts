import { ADMINS_ROOM, type LinkClicks } from '@seatlink/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import type { LiveUpdate } from '../../infra/subscriptions/subscription.js';
import { CLICK_PUSH_WINDOW_MS, ClickPusher } from './click-pusher.service.js';

/** The pushes sent, as [room, links as `<distribution>:<clicks>`]. */
function recording() {
  const sent: Array<[string, string[]]> = [];
  const publisher: RealtimePublisher = {
    publish(updates: readonly LiveUpdate[]) {
      for (const u of updates) {
        expect(u.event).toBe('distributions.clicked');
        const room = typeof u.to === 'string' ? u.to : `user:${u.to.userId}`;
        const links = (u.payload as { links: LinkClicks[] }).links;
        sent.push([
          room,
          links.map((l) => `${l.distribution_id}:${l.clicks}${l.claimed_by ? `:${l.claimed_by.name}` : ''}`),
        ]);
      }
    },
    disconnectUser: () => undefined,
    disconnectSession: () => undefined,
  };
  return { sent, pusher: new ClickPusher(publisher) };
}

const click = (userId: string, distributionId: string, clicks: number, name?: string) => ({
  userId,
  ticketId: `t-${distributionId}`,
  distributionId,
  clicks,
  ...(name && { claimedBy: { name, device: null, at: '2026-12-07T12:00:00.000Z' } }),
});

describe('ClickPusher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pushes the first click at once, then one push per window with every link clicked since, at its latest count', () => {
    const { sent, pusher } = recording();
    pusher.clicked(click('u1', 'a', 1));
    expect(sent).toEqual([
      ['user:u1', ['a:1']],
      [ADMINS_ROOM, ['a:1']],
    ]);
    // 2,000 clicks over 1,000 links within the window: one push per room after it.
    for (let n = 0; n < 2000; n++) pusher.clicked(click('u1', `l${n % 1000}`, Math.floor(n / 1000) + 1));
    pusher.clicked(click('u1', 'a', 3));
    pusher.clicked(click('u1', 'a', 2));
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(CLICK_PUSH_WINDOW_MS);
    expect(sent).toHaveLength(4);
    const [room, links] = sent[2]!;
    expect(room).toBe('user:u1');
    expect(links).toHaveLength(1001);
    expect(links).toContain('a:3');
    expect(links).toContain('l999:2');
    expect(sent[3]![0]).toBe(ADMINS_ROOM);
    // A quiet window ends the spell: the next click goes at once again.
    vi.advanceTimersByTime(CLICK_PUSH_WINDOW_MS * 2);
    pusher.clicked(click('u1', 'a', 4));
    expect(sent.slice(4)).toEqual([
      ['user:u1', ['a:4']],
      [ADMINS_ROOM, ['a:4']],
    ]);
  });

  it('never pushes a count lower than one it pushed (claims answered out of order), and keeps who claimed', () => {
    const { sent, pusher } = recording();
    pusher.clicked(click('u1', 'a', 5, 'Ada'));
    pusher.clicked(click('u1', 'a', 4, 'Bo'));
    pusher.clicked(click('u1', 'a', 6));
    vi.advanceTimersByTime(CLICK_PUSH_WINDOW_MS);
    expect(sent.filter(([room]) => room === 'user:u1')).toEqual([
      ['user:u1', ['a:5:Ada']],
      ['user:u1', ['a:6']],
    ]);
  });

  it('keeps each owner’s links to their own room; admins get every owner’s in one push', () => {
    const { sent, pusher } = recording();
    pusher.clicked(click('u1', 'a', 1));
    pusher.clicked(click('u2', 'b', 1));
    pusher.clicked(click('u2', 'b', 2));
    vi.advanceTimersByTime(CLICK_PUSH_WINDOW_MS);
    expect(sent).toEqual([
      ['user:u1', ['a:1']],
      [ADMINS_ROOM, ['a:1']],
      ['user:u2', ['b:1']],
      [ADMINS_ROOM, ['b:2']],
      ['user:u2', ['b:2']],
    ]);
  });

  it('sends what is due when the process stops', () => {
    const { sent, pusher } = recording();
    pusher.clicked(click('u1', 'a', 1));
    pusher.clicked(click('u1', 'a', 2));
    pusher.beforeApplicationShutdown();
    expect(sent.slice(2)).toEqual([
      ['user:u1', ['a:2']],
      [ADMINS_ROOM, ['a:2']],
    ]);
    vi.advanceTimersByTime(CLICK_PUSH_WINDOW_MS * 4);
    expect(sent).toHaveLength(4);
  });
});
