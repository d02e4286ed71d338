/**
 * `link-activity`: the server time of GET /v1/links/activity (the Link activity page) for a holder of 10,000 links,
 * a third of them opened (by one to four devices), some claimed, some expiring unclaimed, with 90 days of activity;
 * the median of READS reads one after another. Baseline, in the same round (the order alternates): the plain list of
 * the same holder's links, GET /v1/links/export.csv (10,000 rows). Goal: the figure ≤ 200 ms. The links and the
 * activity are written straight into their read-model tables (as the link-opens projection writes them): this measures
 * the read, not the making of 10,000 links. Asserts only that every read answered 200 with what was written.
 */
import type { LinkActivityResponse, User } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../services/server/src/infra/db/database.module.js';
import type { Database } from '../services/server/src/infra/db/database.js';
import { ApiClient, startTestStack, type TestStack } from '../services/server/src/testing/test-app.js';
import { createVerifiedUser } from '../services/server/src/testing/users.js';
import { entryFromRounds, median, recordResults, round } from './results.js';
import { fmt, noteLoadAtStart, printTable, ROUNDS, roundOrder } from './support.js';

const LINKS = 10_000;
const READS = 20;

describe('the Link activity of a holder of 10,000 links', () => {
  let stack: TestStack;
  let database: Database;
  let loadAtStart: number[] = [];

  beforeAll(async () => {
    loadAtStart = noteLoadAtStart();
    stack = await startTestStack({ env: { LOG_LEVEL: 'error' } });
    database = stack.app.get<Database>(DATABASE);
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('link-activity: GET /v1/links/activity against the plain list of the same links', async () => {
    const made = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    const userId = ((await client.login(made.email, made.password)).body.user as User).id;
    // 10,000 links: every third opened (1 to 4 devices), every ninth of those claimed, every 50th expiring in hours.
    await database.query(
      `insert into links (distribution_id, code, ticket_id, user_id, max_clicks, expires_at, label, created_at, clicks)
       select gen_random_uuid(), 'bench' || lpad(i::text, 17, '0'), gen_random_uuid(), $1::uuid, null,
              case when i % 50 = 0 then now() + make_interval(hours => 1 + i % 20) else now() + interval '30 days' end,
              'for guest ' || i, now() - make_interval(mins => i), case when i % 27 = 0 then 1 else 0 end
       from generate_series(1, $2::int) i`,
      [userId, LINKS],
    );
    await database.query(
      `insert into link_open_totals (distribution_id, user_id, opens, last_open_at)
       select distribution_id, user_id, 1 + (row_number() over ()) % 4, now() - make_interval(mins => (row_number() over ())::int)
       from (select distribution_id, user_id from links where user_id = $1::uuid order by created_at) l
       where random() < 0.34`,
      [userId],
    );
    await database.query(
      `insert into link_activity_days (user_id, day, opens, claims)
       select $1::uuid, current_date - d, 30 + d % 17, 3 + d % 5 from generate_series(0, 89) d`,
      [userId],
    );
    await database.query('analyze links, link_open_totals, link_activity_days');
    const cookie = client.sessionCookie;

    const readMs = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < READS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${stack.baseUrl}${path}`, { headers: { cookie } });
        const body = await res.text();
        times.push(performance.now() - t0);
        expect(res.status).toBe(200);
        if (path.startsWith('/v1/links/activity')) {
          const answer = JSON.parse(body) as LinkActivityResponse;
          expect(answer.days).toHaveLength(30);
          expect(answer.opened_not_claimed).toHaveLength(20);
          expect(answer.expiring_unclaimed.length).toBeGreaterThan(0);
        } else {
          expect(body.split('\n').length).toBeGreaterThan(LINKS);
        }
      }
      return median(times);
    };

    const rounds: Array<{ figure: number; baseline: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      let figure = 0;
      let baseline = 0;
      for (const variant of roundOrder(r, ['baseline', 'activity'] as const)) {
        if (variant === 'activity') figure = await readMs('/v1/links/activity?days=30');
        else baseline = await readMs('/v1/links/export.csv');
      }
      rounds.push({ figure, baseline });
    }
    printTable(
      `GET /v1/links/activity of a holder of ${fmt.int(LINKS)} links (median of ${READS} reads), against their CSV list`,
      ['round', 'activity ms', 'list ms', 'ratio'],
      rounds.map((x, i) => [
        String(i + 1),
        fmt.fixed(x.figure, 1),
        fmt.fixed(x.baseline, 1),
        fmt.fixed(x.figure / x.baseline, 3),
      ]),
    );
    await recordResults([
      entryFromRounds(
        'link-activity',
        {
          unit: 'ms',
          baselineUnit: 'ms',
          baselineName: `GET /v1/links/export.csv of the same holder's ${fmt.int(LINKS)} links (median of ${READS} reads)`,
        },
        rounds,
        {
          goal: { field: 'figure', atMost: 200 },
          reads: `GET /v1/links/activity?days=30, median of ${READS} reads one after another`,
          links: LINKS,
          medianMs: round(median(rounds.map((x) => x.figure)), 1),
          loadAverageAtStart: loadAtStart,
        },
      ),
    ]);
  }, 600_000);
});
