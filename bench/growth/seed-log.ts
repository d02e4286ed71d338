/**
 * Seeds the event log of a migrated database with COPY: a year of a product with 10,000 users, most of its events a
 * link's clicks (LinkClicked, in the claims' monthly partitions), the rest the users' own streams, their credits and
 * their links (events_main). The rows go straight into `events_main` and `events_claims` (the latter routes each click
 * to its month), two COPY streams filled side by side. See bench/README.md, "growth".
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { prng } from '../../services/server/src/testing/prng.js';

export const USERS = 10_000;
/** Share of the events after the users' registrations that are not clicks: credits set and links made. */
const MAIN_SHARE = 0.1;
/** Of those: one in three makes a link (TicketDistributed), the others set credits (CreditsSet). */
const LINK_EVERY = 3;
const DAY_MS = 86_400_000;
/** The log spans the last 365 days (the claims' 12 months and the current one), up to an hour ago. */
const SPAN_MS = 365 * DAY_MS;
/** Rows per write to a COPY stream. */
const CHUNK_ROWS = 2_000;

/** How the log's events divide, for `events` in all. */
export function growthMix(events: number) {
  const registrations = 2 * USERS;
  if (events < registrations * 2) throw new Error(`GROWTH_EVENTS must be at least ${registrations * 2}`);
  const rest = events - registrations;
  const main = Math.round(rest * MAIN_SHARE);
  const links = Math.floor(main / LINK_EVERY);
  return { registrations, credits: main - links, links, clicks: rest - main };
}

/** A UUID made from a number (unique per `kind`, 0–15), so a seed of millions keeps no strings for its ids. */
const idOf = (kind: number, n: number) =>
  `${kind.toString(16)}0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const userId = (u: number) => idOf(1, u);
const emailOf = (u: number) => `user${u}@growth.example.com`;

const DEVICES = ['iPhone', 'Android phone', 'Windows PC', 'Mac'];
const NAMES = ['Sam', 'Alex', 'Jo', 'Chris', 'Pat', 'Robin'];
const PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$c2VhdGxpbmtncm93dGhzYWx0$5nB3mG0xQk1z7m9bR8yV2vJq4Yw1c0Hf8sXo3rLkT6E';

const COPY_COLUMNS =
  '(global_position, transaction_id, stream_id, stream_position, event_id, type, data, metadata, created_at, epoch)';

/** One COPY of rows (text format) into a table, written in chunks with back-pressure. */
class CopyWriter {
  private rows: string[] = [];
  rowsWritten = 0;
  private constructor(
    private readonly client: pg.Client,
    private readonly stream: NodeJS.WritableStream & ReturnType<typeof copyFrom>,
  ) {}

  static async open(url: string, table: string): Promise<CopyWriter> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const stream = client.query(copyFrom(`copy ${table} ${COPY_COLUMNS} from stdin`));
    return new CopyWriter(client, stream);
  }

  async push(row: string): Promise<void> {
    this.rows.push(row);
    if (this.rows.length >= CHUNK_ROWS) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const text = this.rows.join('');
    this.rowsWritten += this.rows.length;
    this.rows = [];
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }

  async end(): Promise<void> {
    await this.flush();
    this.stream.end();
    await finished(this.stream);
    await this.client.end();
  }

  async abort(): Promise<void> {
    this.stream.destroy(new Error('seed aborted'));
    await this.client.end().catch(() => undefined);
  }
}

export interface SeedResult {
  events: number;
  clicks: number;
  links: number;
  seconds: number;
  /** Seconds of the COPYs alone (the rest: the months made, VACUUM ANALYZE). */
  copySeconds: number;
  vacuumSeconds: number;
}

/**
 * Seeds `events` events into the database of `url` (already migrated, claims' partitions made for the last 12 months
 * by the caller). Transaction ids are set below the cluster's snapshot xmin (every reader's feed bound shows them),
 * epoch 0, global positions after the sequence's value, which is set past them afterwards.
 */
export async function seedLog(url: string, events: number, now: Date): Promise<Omit<SeedResult, 'seconds'>> {
  const mix = growthMix(events);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const started = performance.now();
  let main: CopyWriter | null = null;
  let claims: CopyWriter | null = null;
  try {
    // Below the cluster's snapshot xmin, and below the transactions of the events already in the log (the product's
    // own, whose readers are past them): the seed comes first in the feed and no running subscription reads it.
    const [{ below, pos }] = (
      await admin.query<{ below: string; pos: string }>(
        `select least(pg_snapshot_xmin(pg_current_snapshot())::text::bigint,
                      (select min(transaction_id) from events))::text as below,
                (select last_value from events_global_position_seq)::text as pos`,
      )
    ).rows as [{ below: string; pos: string }];
    // Transaction ids 3 … below - 1, non-decreasing along the global positions (many events share one).
    const txSpan = Math.max(1, Number(below) - 4);
    const firstPosition = Number(pos) + 1;
    const start = now.getTime() - SPAN_MS;
    const random = prng(41);

    main = await CopyWriter.open(url, 'events_main');
    claims = await CopyWriter.open(url, 'events_claims');

    const creditsOf = new Int32Array(USERS);
    const clicksOf = new Int32Array(mix.links);
    let linksMade = 0;
    let clicksMade = 0;
    let creditsMade = 0;
    const nonClicks = mix.credits + mix.links;
    const mainShare = nonClicks / (nonClicks + mix.clicks);

    for (let i = 0; i < events; i++) {
      const position = firstPosition + i;
      const tx = 3 + Math.floor((i * txSpan) / events);
      // Registrations over the first week; the rest spread evenly over the year.
      const at = new Date(
        i < mix.registrations
          ? start + Math.floor((i * 7 * DAY_MS) / mix.registrations)
          : start +
              7 * DAY_MS +
              Math.floor(((i - mix.registrations) * (SPAN_MS - 8 * DAY_MS)) / (events - mix.registrations)),
      ).toISOString();
      const eventId = randomUUID();
      let row: { stream: string; n: number; type: string; data: string; metadata: string; to: CopyWriter };
      if (i < mix.registrations) {
        const u = i >> 1;
        const uid = userId(u);
        const metadata = `{"actorId":"${uid}","ip":"198.51.100.23","commandId":"register:${uid}"}`;
        row =
          (i & 1) === 0
            ? {
                stream: `user-email-${emailOf(u)}`,
                n: 0,
                type: 'EmailClaimed',
                data: `{"email":"${emailOf(u)}","userId":"${uid}"}`,
                metadata,
                to: main,
              }
            : {
                stream: `user-${uid}`,
                n: 0,
                type: 'UserRegistered',
                data:
                  `{"userId":"${uid}","email":"${emailOf(u)}","firstName":"First${u}","lastName":"Last${u}",` +
                  `"passwordHash":"${PASSWORD_HASH}","isAdmin":false,"emailVerified":true,"registeredAt":"${at}"}`,
                metadata,
                to: main,
              };
      } else {
        const remaining = events - i;
        const wantMain = linksMade + creditsMade < nonClicks;
        const wantClick = clicksMade < mix.clicks && linksMade > 0;
        const isMain =
          wantMain && (!wantClick || random() < mainShare || remaining <= nonClicks - linksMade - creditsMade);
        if (isMain) {
          // A link every LINK_EVERY, as long as links remain to make; credits otherwise.
          const makeLink =
            linksMade < mix.links && (creditsMade >= mix.credits || (linksMade + creditsMade) % LINK_EVERY === 0);
          // A link's owner is fixed by its number (its clicks name the owner too); credits go to anyone.
          const u = makeLink ? linksMade % USERS : Math.floor(random() * USERS);
          const uid = userId(u);
          const metadata = `{"actorId":"${uid}","ip":"203.0.113.7","commandId":"${randomUUID()}"}`;
          if (makeLink) {
            const k = linksMade++;
            const ticketId = idOf(3, k);
            row = {
              stream: `ticket-distribution-${ticketId}`,
              n: 0,
              type: 'TicketDistributed',
              data:
                `{"ticketId":"${ticketId}","distributionId":"${idOf(2, k)}","userId":"${uid}",` +
                `"accountId":"${idOf(4, u)}","code":"g${k.toString(36)}","expiresAt":null,"maxClicks":null,"cost":1,` +
                `"label":null,"pinHash":null,"recipient":null,"at":"${at}"}`,
              metadata,
              to: main,
            };
          } else {
            const n = creditsOf[u]!++;
            creditsMade++;
            row = {
              stream: `credits-${uid}`,
              n,
              type: 'CreditsSet',
              data: `{"userId":"${uid}","credits":${(n + 1) * 25},"previousBalance":${n * 25},"setBy":"${userId(0)}","at":"${at}"}`,
              metadata,
              to: main,
            };
          }
        } else {
          // A click of a link made before it: a recent link more often than an old one.
          const r = random();
          const k = Math.min(linksMade - 1, Math.floor(linksMade * (1 - r * r)));
          const n = clicksOf[k]!++;
          clicksMade++;
          const name = random() < 0.5 ? `,"name":"${NAMES[k % NAMES.length]}"` : '';
          const distributionId = idOf(2, k);
          row = {
            stream: `link-clicks-${distributionId}`,
            n,
            type: 'LinkClicked',
            data:
              `{"distributionId":"${distributionId}","ticketId":"${idOf(3, k)}","userId":"${userId(k % USERS)}",` +
              `"n":${n + 1},"at":"${at}"${name},"device":"${DEVICES[n % DEVICES.length]}"}`,
            metadata: '{}',
            to: claims,
          };
        }
      }
      await row.to.push(
        `${position}\t${tx}\t${row.stream}\t${row.n}\t${eventId}\t${row.type}\t${row.data}\t${row.metadata}\t${at}\t0\n`,
      );
    }
    await main.end();
    await claims.end();
    const copySeconds = (performance.now() - started) / 1000;
    await admin.query(`select setval('events_global_position_seq', $1::bigint)`, [firstPosition + events]);
    const vacuumStarted = performance.now();
    await admin.query('vacuum analyze events');
    return {
      events,
      clicks: clicksMade,
      links: linksMade,
      copySeconds,
      vacuumSeconds: (performance.now() - vacuumStarted) / 1000,
    };
  } catch (err) {
    await main?.abort();
    await claims?.abort();
    throw err;
  } finally {
    await admin.end();
  }
}
