import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClickTimelineResponse } from '@seatlink/contracts';
import { createQueryClient } from '../../../lib/create-query-client';
import { stubFetch } from '../../../testing/fetch-stub';
import { catchUpInterval, clickTimelineQuery, MAX_CATCH_UPS, TIMELINE_REFRESH_MS } from './use-click-timeline';

afterEach(() => {
  vi.unstubAllGlobals();
});

const timeline = (clicks: number, drawn: number[]): ClickTimelineResponse => ({
  distribution_id: 'd-1',
  label: null,
  clicks,
  max_clicks: null,
  minutes: drawn.map((n, i) => ({ minute: `2026-11-26T10:0${i}:00.000Z`, clicks: n })),
  opens: 0,
  open_minutes: [],
});

describe('a link click timeline', () => {
  it('is read per click count, once: the same count answers from the cache', async () => {
    const calls = stubFetch({ status: 200, body: timeline(3, [1, 2]) }, { status: 200, body: timeline(4, [1, 3]) });
    const client = createQueryClient();
    await client.ensureQueryData(clickTimelineQuery('d-1', 3));
    await client.ensureQueryData(clickTimelineQuery('d-1', 3));
    await client.ensureQueryData(clickTimelineQuery('d-1', 4));
    expect(calls.map((c) => c.url)).toEqual(['/v1/distributions/d-1/clicks', '/v1/distributions/d-1/clicks']);
  });

  it('keeps the last timeline read when a read fails', async () => {
    stubFetch({ status: 200, body: timeline(3, [1, 2]) }, { status: 503 }, { status: 503 });
    const client = createQueryClient();
    await client.ensureQueryData(clickTimelineQuery('d-1', 3));
    expect((await client.ensureQueryData(clickTimelineQuery('d-1', 5))).minutes).toEqual(timeline(3, [1, 2]).minutes);
    expect(await client.ensureQueryData(clickTimelineQuery('d-2', 1))).toMatchObject({ clicks: 1, minutes: [] });
  });

  it('is read again while it lags behind the count asked or its minutes behind its count, a few times at most', () => {
    expect(catchUpInterval(timeline(3, [1, 2]), 1, 3)).toBe(false);
    expect(catchUpInterval(timeline(3, [1]), 1, 3)).toBe(TIMELINE_REFRESH_MS);
    // Read before the count it was asked for reached it.
    expect(catchUpInterval(timeline(2, [1, 1]), 1, 3)).toBe(TIMELINE_REFRESH_MS);
    expect(catchUpInterval(timeline(3, [1]), MAX_CATCH_UPS, 3)).toBe(TIMELINE_REFRESH_MS);
    expect(catchUpInterval(timeline(3, [1]), MAX_CATCH_UPS + 1, 3)).toBe(false);
    expect(catchUpInterval(undefined, 0, 3)).toBe(false);
  });
});
