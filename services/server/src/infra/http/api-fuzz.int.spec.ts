import type { Ticket, User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import type { OpenApiDocument } from './openapi.js';

/**
 * The API fuzzed from its own description: every operation of /docs/json, as a visitor, a user and an admin, with
 * path, query and body values generated from the operation's schemas (valid-looking ones, to get past the first
 * check, mixed with hostile ones: NUL and control characters, lone surrogates, bidirectional overrides, huge and
 * far-date values, wrong types, deep nesting, malformed JSON and percent-encoding). After every request:
 * - no answer is a 5xx (nor a hang: 10 s at most);
 * - the process still answers `/health` with 200 (nothing parked, nothing stuck);
 * - a refused request (4xx), and any GET, wrote nothing: the events (count and last position) and the row count of
 *   every table are what they were. The one write a refusal makes by design is the audit of a refused distribution,
 *   recall or link edit (DistributionRefused / RecallRefused / LinkUpdateRefused, their audit rows and the user's
 *   stream list).
 * Requests that succeed may write, as they should; the suite waits for what they set going (projections, jobs, the
 * click recorder) before the next one, so each write is put down to the request that made it.
 *
 * Fixed seed (FUZZ_SEED to change it) and a bounded number of runs per operation and role (FUZZ_RUNS to scale
 * them): fast-check prints the seed, the path and the shrunk request of a failure, which replays it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Only the operations whose `METHOD /path` matches (replaying a failure). */
const ONLY = new RegExp(process.env.FUZZ_ONLY ?? '');
/** Runs for a role the route refuses at its door (a visitor on a signed-in call, a user on an admin call). */
const DOOR_RUNS = Math.max(2, Math.round(RUNS / 4));

type Role = 'visitor' | 'user' | 'admin';
type Access = 'public' | 'session' | 'admin';
type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
};

interface Operation {
  method: string;
  path: string;
  access: Access;
  params: Array<{ name: string; in: 'path' | 'query' | 'header'; schema: JsonSchema }>;
  body?: JsonSchema;
}

/**
 * What is not fuzzed, and why: signing out ends the session the user and admin fuzz with (as a visitor it is
 * fuzzed). Nothing else is left out.
 */
const SKIP: Record<string, Role[]> = { 'POST /v1/logout': ['user', 'admin'] };

/**
 * Refusals audited by design (docs/reference.md "Audit entry": every distribution and recall, refused ones included;
 * link edits too).
 */
const AUDITED_REFUSALS: Record<string, { events: string[]; tables: string[] }> = {
  'POST /v1/tickets/distribute': { events: ['DistributionRefused'], tables: ['audit_entries', 'user_streams'] },
  'POST /v1/distributions/{id}/recall': { events: ['RecallRefused'], tables: ['audit_entries', 'user_streams'] },
  'POST /v1/distributions/recall': { events: ['RecallRefused'], tables: ['audit_entries', 'user_streams'] },
  'PATCH /v1/distributions/{id}': { events: ['LinkUpdateRefused'], tables: ['audit_entries', 'user_streams'] },
  'PATCH /v1/distributions': { events: ['LinkUpdateRefused'], tables: ['audit_entries', 'user_streams'] },
};

/** Tables a request never writes: the subscriptions' own bookkeeping (a checkpoint or host row may appear any time). */
const NOT_COUNTED = new Set(['subscription_checkpoints', 'subscription_hosts']);

// --- Values ---------------------------------------------------------------------------------------------------------

/** One character of hostile text: NUL and controls, lone surrogates, bidi overrides, zero-width, BOM, or any code point. */
const hostileChar = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\u0007',
    '\u001b',
    '\r',
    '\n',
    '\u0085',
    '\ud800',
    '\udfff',
    '\u202e',
    '\u2066',
    '\u200b',
    '\u200f',
    '\ufeff',
    '\uffff',
    '%',
    '"',
    "'",
    '\\',
    '<',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

const FAR_DATES = [
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '+010000-01-01T00:00:00Z',
  '10000-01-01',
  '0000-01-01',
  '-000001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00.000Z',
  '2026-02-30',
  '2025-06-01T25:00:00Z',
  '2025-06-01T12:00',
  '1970-01-01T00:00:00+23:59',
];

const hostileString = fc.oneof(
  fc.string({ unit: hostileChar, maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\u202egnp.exe',
    '__proto__',
    'constructor',
    'null',
    'NaN',
    '-0',
    '1e309',
    '0x10',
    "' or 1=1 --",
    '%00',
    '../../etc/passwd',
    '${jndi:ldap://x}',
    ...FAR_DATES,
  ),
  fc.nat({ max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.nat({ max: 30_000 }).map((n) => '\u{1F600}'.repeat(n)),
);

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 0.5, 1.5, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 5e-324),
  fc.double(),
  fc.integer(),
);

/** A value of the wrong kind, or deep: null, booleans, arrays, objects, JSON of any shape. */
const wrongType = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { '': '' }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 10, max: 2000 }).map((depth) => nest(depth, [])),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, wrongType);

function nest(depth: number, inner: unknown): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Dates of this era. */
const nearDate = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString());
/** Dates of any year JavaScript holds (most of them outside 1 to 9999), near ones, and the edges. */
const anyDate = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  nearDate,
  fc.constantFrom(...FAR_DATES),
);

const isDateSchema = (schema: JsonSchema) => /ISO 8601/.test(schema.description ?? '');

/**
 * Values the schema takes, or nearly: they pass the first checks, so what lies behind them is fuzzed too. `strict`:
 * only values it takes (near dates, real ids, every object field of its kind).
 */
function plausible(schema: JsonSchema, pools: Pools, strict = false): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((s) => plausible(s, pools, strict)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      let base: fc.Arbitrary<unknown>;
      if (isDateSchema(schema)) base = strict ? nearDate : anyDate;
      else if (schema.format === 'uuid') base = fc.oneof(fc.uuid(), fc.constantFrom(...pools.uuids));
      else if (schema.format === 'email') base = fc.oneof(fc.emailAddress(), fc.constantFrom(...pools.emails));
      else if (schema.pattern) {
        const matching = fc.stringMatching(new RegExp(schema.pattern));
        base = schema.maxLength ? matching.filter((s) => s.length <= schema.maxLength!) : matching;
      } else {
        base = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 300) });
      }
      if (strict) return base;
      // Any text may be read as a date somewhere (a date field described as plain text included).
      return fc.oneof(
        { weight: 4, arbitrary: base },
        { weight: 1, arbitrary: anyDate },
        { weight: 1, arbitrary: fc.constantFrom(...pools.texts) },
      );
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(
        schema.items ? (strict ? plausible(schema.items, pools, true) : field(schema.items, pools)) : hostileValue,
        {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, 4),
        },
      );
    case 'object':
      return strict
        ? fc.record(
            Object.fromEntries(
              Object.entries(schema.properties ?? {}).map(([name, s]) => [name, plausible(s, pools, true)]),
            ),
          )
        : objectOf(schema, pools);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A field's value: mostly plausible, often hostile. */
const field = (schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: plausible(schema, pools) }, { weight: 2, arbitrary: hostileValue });

/** An object of the schema's fields, each there or not, with now and then a field it does not know. */
function objectOf(schema: JsonSchema, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const known = fc.record(Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, field(s, pools)])));
  // Each field is dropped now and then (a required one missing is a case of its own).
  const dropped = fc.array(fc.constantFrom(...Object.keys(properties), '-'), { maxLength: 2 });
  const extra = fc.option(
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__proto__')), hostileValue, { maxKeys: 2 }),
    {
      nil: undefined,
      freq: 4,
    },
  );
  return fc.tuple(known, dropped, extra).map(([values, drop, more]) => {
    const result: Record<string, unknown> = { ...more, ...values };
    for (const name of drop) delete result[name];
    return result;
  });
}

/** A body as sent: JSON text (or not), with a content type. */
interface Body {
  text: string;
  contentType: string | null;
}

const nestedText = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;

/** Whole bodies that no route takes: malformed JSON, other content types, deep nesting, huge, prototype keys. */
const hostileBody: fc.Arbitrary<Body> = fc.oneof(
  fc
    .constantFrom(
      '{',
      '{"a":',
      'nul',
      '[1,]',
      '{"a":1,}',
      '\u0000',
      '\ufeff{}',
      '"\ud800"',
      '1e999999',
      '-',
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"isAdmin":true}}}',
      '{"a":1,"a":2}',
      'null',
      '[]',
      '"text"',
      '12',
      'true',
    )
    .map((text) => ({ text, contentType: 'application/json' })),
  fc.integer({ min: 60, max: 20_000 }).map((depth) => ({ text: nestedText(depth), contentType: 'application/json' })),
  fc.constantFrom(
    { text: 'email=a@b.co&password=x', contentType: 'application/x-www-form-urlencoded' },
    { text: '{"email":"a@b.co"}', contentType: 'text/plain' },
    { text: '<a/>', contentType: 'application/xml' },
    { text: '{"email":"a@b.co"}', contentType: 'application/json; charset=utf-16' },
    { text: '{}', contentType: 'multipart/form-data; boundary=x' },
    { text: '{}', contentType: null },
  ),
  fc.constant({ text: `{"a":"${'x'.repeat(300 * 1024)}"}`, contentType: 'application/json' }),
);

function bodyOf(operation: Operation, pools: Pools): fc.Arbitrary<Body | null> {
  const json = (value: fc.Arbitrary<unknown>) =>
    value.map((v): Body => ({ text: JSON.stringify(v) ?? 'null', contentType: 'application/json' }));
  // (fetch sends no body with a GET, nor does a browser.)
  if (operation.method === 'GET') return fc.constant(null);
  if (!operation.body) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: json(hostileValue) },
      { weight: 1, arbitrary: hostileBody },
    );
  }
  return fc.oneof(
    { weight: 6, arbitrary: json(plausible(operation.body, pools)) },
    { weight: 1, arbitrary: json(hostileValue) },
    { weight: 2, arbitrary: hostileBody },
  );
}

/** A query or path value as it goes in the URL: any value (encoded), or `{ raw }`, bytes a careless client sends. */
type UrlValue = unknown;

const rawUrlValue = fc
  .constantFrom('%', '%zz', '%FF', '%C0%AE', '%ED%A0%80', '%00', '%E2%80%AE', '%%', '%2', '+%2B+', '%5B%5D')
  .map((raw) => ({ raw }));

function encode(value: UrlValue): string {
  if (value && typeof value === 'object' && 'raw' in value) return (value as { raw: string }).raw;
  const text = typeof value === 'string' ? value : value === null ? '' : JSON.stringify(value);
  // A lone surrogate has no UTF-8: sent as the bytes a careless encoder makes of it.
  return Array.from(text, (c) => (/^[\ud800-\udfff]$/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
}

interface Request {
  path: Record<string, UrlValue>;
  query: Array<[string, UrlValue]>;
  body: Body | null;
  idempotencyKey: string | null;
  userAgent: string | null;
}

/** The longest URL sent: with the longest user agent (2,000) and the other headers, a head well under 16 KiB. */
const MAX_URL = 9_000;

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** A request with hostile values anywhere: every path, query and body value drawn on its own. */
function scattered(operation: Operation, pools: Pools): fc.Arbitrary<Request> {
  const pathParams = operation.params.filter((p) => p.in === 'path');
  const queryParams = operation.params.filter((p) => p.in === 'query');
  const urlValue = (schema: JsonSchema) =>
    fc.oneof(
      { weight: 3, arbitrary: plausible(schema, pools) },
      { weight: 2, arbitrary: hostileString.map((s) => s.slice(0, 600)) },
      { weight: 1, arbitrary: rawUrlValue },
      { weight: 1, arbitrary: hostileNumber },
    );
  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, urlValue(p.schema)])));
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.oneof(
          { weight: 2, arbitrary: fc.constant([] as Array<[string, UrlValue]>) },
          { weight: 3, arbitrary: urlValue(p.schema).map((v): Array<[string, UrlValue]> => [[p.name, v]]) },
          // Given twice (or as an array where one value is asked for).
          {
            weight: 1,
            arbitrary: fc
              .array(urlValue(p.schema.items ?? p.schema), { minLength: 2, maxLength: 12 })
              .map((vs) => vs.map((v): [string, UrlValue] => [p.name, v])),
          },
        ),
      ),
      fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom('__proto__', 'constructor', 'a[b]', ''), fc.string({ maxLength: 6 })),
          urlValue({}),
        ),
        {
          maxLength: 2,
        },
      ),
    )
    .map((parts) => parts.flat());
  return fc.record({ path, query, body: bodyOf(operation, pools), idempotencyKey, userAgent });
}

const idempotencyKey = fc.option(
  fc.oneof(
    fc.uuid(),
    fc.string({ unit: fc.constantFrom(...'ab09-_~!'), minLength: 1, maxLength: 255 }),
    fc.constantFrom('', ' ', 'x'.repeat(256), 'é', '\u00ff'.repeat(10), 'a b'),
  ),
  { nil: null, freq: 2 },
);
const userAgent = fc.option(fc.constantFrom(BROWSER, 'curl/8.5.0', 'facebookexternalhit/1.1', 'x'.repeat(2000)), {
  nil: null,
  freq: 4,
});

const hostileUrlValue: fc.Arbitrary<UrlValue> = fc.oneof(
  hostileString.map((s) => s.slice(0, 600)),
  rawUrlValue,
  hostileNumber,
  anyDate,
);
const hostileField: fc.Arbitrary<unknown> = fc.oneof(hostileValue, anyDate);

/** A query value as entries: an array is the parameter repeated. */
const entriesOf = (name: string, value: unknown): Array<[string, UrlValue]> =>
  Array.isArray(value) ? value.map((v): [string, UrlValue] => [name, v]) : [[name, value]];

/**
 * A request the route would take but for one value: every other path, query and body value is one the schema takes,
 * so the one hostile value meets whatever checks lie furthest in (a far date past the id, the limit and the filters).
 */
function poisoned(operation: Operation, pools: Pools): fc.Arbitrary<Request> {
  const pathParams = operation.params.filter((p) => p.in === 'path');
  const queryParams = operation.params.filter((p) => p.in === 'query');
  const body = operation.method === 'GET' ? undefined : operation.body;
  const slots = [
    ...pathParams.map((p) => ({ in: 'path' as const, name: p.name })),
    ...queryParams.map((p) => ({ in: 'query' as const, name: p.name })),
    ...Object.keys(body?.properties ?? {}).map((name) => ({ in: 'body' as const, name })),
  ];
  if (slots.length === 0) return scattered(operation, pools);
  return fc
    .record({
      path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, plausible(p.schema, pools, true)]))),
      query: fc.tuple(
        ...queryParams.map((p) => fc.option(plausible(p.schema, pools, true), { nil: undefined, freq: 2 })),
      ),
      body: body ? plausible(body, pools, true) : fc.constant(undefined),
      slot: fc.constantFrom(...slots),
      urlValue: hostileUrlValue,
      fieldValue: hostileField,
      idempotencyKey,
      userAgent,
    })
    .map((r): Request => {
      const path: Record<string, UrlValue> = { ...r.path };
      let query = queryParams.flatMap((p, i) => (r.query[i] === undefined ? [] : entriesOf(p.name, r.query[i])));
      let json = r.body as Record<string, unknown> | undefined;
      if (r.slot.in === 'path') path[r.slot.name] = r.urlValue;
      if (r.slot.in === 'query') query = [...query.filter(([n]) => n !== r.slot.name), [r.slot.name, r.urlValue]];
      if (r.slot.in === 'body') json = { ...json, [r.slot.name]: r.fieldValue };
      return {
        path,
        query,
        body: json === undefined ? null : { text: JSON.stringify(json), contentType: 'application/json' },
        idempotencyKey: r.idempotencyKey,
        userAgent: r.userAgent,
      };
    });
}

function requestOf(operation: Operation, pools: Pools): fc.Arbitrary<Request> {
  return fc.oneof(
    { weight: 3, arbitrary: poisoned(operation, pools) },
    { weight: 2, arbitrary: scattered(operation, pools) },
  );
}

/** Real ids and texts of this stack, so generated requests reach past "not found" now and then. */
interface Pools {
  uuids: string[];
  emails: string[];
  texts: string[];
}

// --- The suite ------------------------------------------------------------------------------------------------------

describe('the API under fuzzing: no 5xx, the process alive, and a refused request or a GET writes nothing', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let operations: Operation[];
  const cookies: Record<Role, string> = { visitor: '', user: '', admin: '' };
  const pools: Pools = { uuids: [], emails: [], texts: [] };
  let countQuery: string;
  const succeeded = new Map<string, number>();

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: url,
        // No sync of its own during the run (the one on linking is waited for): every write is a request's.
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        // (Twenty days: the in-process queue's timers hold at most 24.8 days.)
        WALLET_SYNC_EVERY_MS: String(20 * 24 * 3600_000),
      },
    });
    database = stack.app.get<Database>(DATABASE);
    const admin = new ApiClient(stack.baseUrl);
    const user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    await user.login('user@seatlink.test', 'User1234!');
    cookies.admin = admin.sessionCookie;
    cookies.user = user.sessionCookie;
    // Something for every route to find: tickets, a link, an invite, another user (whom admins may ban: not the
    // fuzzing user, whose session must last).
    const { account, tickets } = await linkWalletWith(user, simControl(url), 'fuzz@wallet.test', passes('fuzz', 3));
    const made = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [tickets[0]!.id] });
    expect(made.status).toBe(200);
    const distribution = (made.body.distributions as Array<{ distribution_id: string; link: string }>)[0]!;
    const invite = await admin.request('POST', '/v1/admin/invites', {
      max_uses: 5,
      expires_at: new Date(Date.now() + 3 * 24 * 3600_000).toISOString().slice(0, 10),
    });
    const inviteCode = invite.body.invite_code as { id: string; code: string };
    const victim = await createVerifiedUser(stack.app, { email: 'victim@example.com' });
    pools.uuids = [
      account.id,
      ...tickets.map((t: Ticket) => t.id),
      distribution.distribution_id,
      inviteCode.id,
      victim.id,
      '00000000-0000-0000-0000-000000000000',
    ];
    pools.emails = ['victim@example.com', 'fuzz@wallet.test', 'nobody@example.com'];
    pools.texts = [distribution.link.split('/l/')[1]!, inviteCode.code, 'pi_test', 'pm_card_visa'];
    const document = (await (await fetch(`${stack.baseUrl}/docs/json`)).json()) as OpenApiDocument;
    operations = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        access: op.security?.length === 0 ? 'public' : op.summary.includes('(admins)') ? 'admin' : 'session',
        params: op.parameters,
        body: op.requestBody?.content['application/json'].schema,
      })),
    );
    // Each table once: a partitioned one (the event log) counted whole, its partitions not again.
    const tables = await database.query<{ table_name: string }>(
      `select c.relname as table_name from pg_class c
       where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition`,
    );
    countQuery = tables
      .map((t) => t.table_name)
      .filter((name) => !NOT_COUNTED.has(name))
      .sort()
      .map((name) => `select '${name}' as t, count(*)::text as n from "${name}"`)
      .join(' union all ');
    // The wallet's sync and what it set going (who holds each pass first) done, and quiet for a while.
    await settle(100, 5);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  /** The row count of every table, and the last event's position. */
  async function snapshot(): Promise<Record<string, string>> {
    const rows = await database.query<{ t: string; n: string }>(
      `${countQuery} union all select 'events.max', coalesce(max(global_position), 0)::text from events`,
    );
    return Object.fromEntries(rows.map((r) => [r.t, r.n]));
  }

  /** Clicks written, and the subscriptions caught up with every event: the read models show what was appended. */
  async function caughtUp() {
    await subscriptionsCaughtUp(stack.app);
  }

  /** Until what a request set going is done (e-mails, jobs): caught up, and nothing moving for a moment. */
  async function settle(quietMs = 25, quietRounds = 1) {
    let last = '';
    let quiet = 0;
    for (let i = 0; i < 400 && quiet < quietRounds; i++) {
      await caughtUp();
      const now = JSON.stringify(await snapshot());
      quiet = now === last ? quiet + 1 : 0;
      last = now;
      if (quiet < quietRounds) await new Promise((r) => setTimeout(r, quietMs));
    }
  }

  const changed = (before: Record<string, string>, after: Record<string, string>) =>
    Object.keys(after).filter((t) => before[t] !== after[t]);

  async function send(operation: Operation, role: Role, request: Request) {
    let path = operation.path;
    for (const [name, value] of Object.entries(request.path)) path = path.replace(`{${name}}`, encode(value));
    // Node refuses a request head over 16 KiB before the application sees it (431, and the socket closed while the
    // client may still be sending): the URL is kept under that, so the application is what is fuzzed.
    const parts = request.query.map(([name, value]) => `${encode(name)}=${encode(value)}`);
    while (parts.length > 0 && path.length + parts.join('&').length > MAX_URL) parts.pop();
    const query = parts.join('&');
    const headers: Record<string, string> = {};
    if (cookies[role]) headers.cookie = cookies[role];
    if (request.body?.contentType) headers['content-type'] = request.body.contentType;
    if (request.idempotencyKey !== null) headers['idempotency-key'] = request.idempotencyKey;
    if (request.userAgent !== null) headers['user-agent'] = request.userAgent;
    const url = `${stack.baseUrl}${path}${query ? `?${query}` : ''}`;
    const res = await fetch(url, {
      method: operation.method,
      headers,
      body: request.body ? request.body.text : undefined,
      signal: AbortSignal.timeout(10_000),
      redirect: 'manual',
    });
    return { url, status: res.status, text: (await res.text()).slice(0, 500) };
  }

  /** One request, and everything that must hold after it. */
  async function check(operation: Operation, role: Role, request: Request) {
    const name = `${operation.method} ${operation.path}`;
    const before = await snapshot();
    const res = await send(operation, role, request);
    const where = `${role} ${operation.method} ${res.url} → ${res.status} ${res.text}`;
    if (process.env.FUZZ_VERBOSE) console.info(where.slice(0, 300));
    if (res.status >= 500) throw new Error(`A 5xx: ${where}`);
    // A request that succeeded may have set work going; a refused one must not have (checked below), and what it
    // appended (by design, or not) is read by the subscriptions before the counts are compared.
    const mayWrite = res.status < 400 && operation.method !== 'GET';
    let after = await snapshot();
    if (mayWrite) {
      await settle();
      after = await snapshot();
    } else if (after['events.max'] !== before['events.max']) {
      await caughtUp();
      after = await snapshot();
    }
    const writes = changed(before, after);
    if (mayWrite) {
      if (writes.length > 0) succeeded.set(name, (succeeded.get(name) ?? 0) + 1);
    } else if (writes.length > 0) {
      const audited = AUDITED_REFUSALS[name];
      const types = await database.query<{ type: string }>(
        `select distinct type from events where global_position > $1`,
        [before['events.max']],
      );
      const allowed =
        audited &&
        writes.every((t) => t === 'events' || t === 'events.max' || audited.tables.includes(t)) &&
        types.every((e) => audited.events.includes(e.type));
      if (!allowed) {
        const detail = writes.map((t) => `${t} ${before[t]}→${after[t]}`).join(', ');
        throw new Error(`A refused request wrote (${detail}; events ${types.map((e) => e.type).join(', ')}): ${where}`);
      }
    }
    const health = await fetch(`${stack.baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
    if (health.status !== 200)
      throw new Error(`/health answered ${health.status} ${await health.text()} after: ${where}`);
  }

  const roles: Role[] = ['visitor', 'user', 'admin'];
  const runsFor = (access: Access, role: Role) =>
    access === 'public' || (access === 'session' && role !== 'visitor') || (access === 'admin' && role === 'admin')
      ? RUNS
      : DOOR_RUNS;

  it(`every operation of /docs/json, as visitor, user and admin (seed ${SEED}, ${RUNS} runs each)`, async () => {
    expect(operations.filter((o) => ONLY.test(`${o.method} ${o.path}`)).length).toBeGreaterThan(0);
    expect(operations.length).toBeGreaterThan(40);
    let requests = 0;
    for (const operation of operations.filter((o) => ONLY.test(`${o.method} ${o.path}`))) {
      for (const role of roles) {
        if (SKIP[`${operation.method} ${operation.path}`]?.includes(role)) continue;
        const numRuns = runsFor(operation.access, role);
        requests += numRuns;
        await fc.assert(
          fc.asyncProperty(requestOf(operation, pools), (request) => check(operation, role, request)),
          { seed: SEED, numRuns, endOnFailure: false },
        );
      }
    }
    // The sessions the suite fuzzed with are still good: nothing it sent ended them.
    for (const role of ['user', 'admin'] as const) {
      const me = await fetch(`${stack.baseUrl}/v1/me`, { headers: { cookie: cookies[role] } });
      expect(me.status, role).toBe(200);
      expect(((await me.json()) as User).email).toBe(`${role}@seatlink.test`);
    }
    expect(await database.query('select 1 from parked_events')).toEqual([]);
    console.info(
      `Fuzzed ${requests} requests over ${operations.length} operations; writes by requests that succeeded: ${
        JSON.stringify(Object.fromEntries(succeeded)) || 'none'
      }`,
    );
  }, 600_000);
});
