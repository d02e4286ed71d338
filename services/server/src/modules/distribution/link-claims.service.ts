import { Inject, Injectable } from '@nestjs/common';
import {
  LINK_MESSAGES,
  LINK_STATE_CODES,
  type LinkPinState,
  type LinkState,
  type PublicLink,
  seatInfoCombined,
} from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { Metrics } from '../../infra/metrics/metrics.js';
import { throttle } from 'throttle-debounce';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { ClickOutbox } from './click-outbox.service.js';
import { ClickPusher } from './click-pusher.service.js';

/**
 * Counted clicks, decided on the link's counter (`link_counters`) by one call of `seatlink_claim_link`
 * (distribution.routines.ts): the counter goes up only while the link is live (not recalled, not expired, its ticket
 * still held) and never past its limit, and each click it counts is recorded as a LinkClicked event in the same
 * transaction, so an answered claim is durable and in the log. The claims of one link that arrive while its calls run
 * go in the next one together: it grants as many as the limit leaves, in order, and answers each claim's click, so
 * with a limit of 100 and any number of claimers at once exactly 100 succeed — and a popular link costs one commit per
 * batch, not one per click. A claim sent with an Idempotency-Key (the recipient page sends one per press) is counted
 * once: its retry gets the click it was given (whose event the first call recorded, whatever became of its answer).
 */
const CLAIM_SQL = `select * from seatlink_claim_link($1, $2::text[], $3::text, $4::boolean, $5::jsonb)`;

/**
 * The subscriptions that read clicks (the link's timeline, the audit log, notifications, webhooks) are told of new
 * ones at most once per this many milliseconds (the first at once): a popular link counts a batch every millisecond or
 * two, and each wake-up costs every one of them a read of the feed; they read what came meanwhile in one.
 */
const WAKE_EVERY_MS = 50;

/** Claims of one link answered by one statement at most. */
const MAX_BATCH = 1000;

/**
 * Statements of one link under way at once. The second waits in PostgreSQL for the first's row lock and runs the moment
 * it commits, instead of the claims that came in meanwhile waiting for the first's answer to travel back and their
 * own statement to travel there (the process stood idle for a quarter of a claim run on that round trip). Claims of
 * the two may be counted in either order; the limit holds all the same.
 */
const UNDER_WAY = 2;

/**
 * Why a link answers no (or that it would answer yes), without counting anything: from its counter, as a claim would
 * decide it this moment.
 */
const LINK_SQL = `
  select c.code, c.expires_at,
         seatlink_link_state(c.recalled_at is not null, t.id is not null, c.expires_at, c.max_clicks, c.clicks,
                             now()) as state,
         case when c.pin_hash is null then 'none' else 'required' end as pin,
         t.title, t.subtitle, t.logo, t.venue_name, t.section, t.row, t.seat, t.next_game, t.next_game_date
  from link_counters c left join tickets t on t.id = c.ticket_id
  where c.code = $1`;

interface LinkRow {
  code: string;
  expires_at: Date | string | null;
  state: LinkState;
  pin: LinkPinState;
  title: string | null;
  subtitle: string | null;
  logo: string | null;
  venue_name: string | null;
  section: string | null;
  row: string | null;
  seat: string | null;
  next_game: string | null;
  next_game_date: string | null;
}

interface ClaimRow {
  distribution_id: string;
  ticket_id: string;
  user_id: string;
  /** The link's state before the batch; for a live link with a PIN the batch did not bring, why not. */
  state: LinkState | 'pin_required';
  before: number;
  after: number;
  last_click_at: Date | string | null;
  save_url: string | null;
  /** Per claim of the batch, the click it was given; null: refused. */
  clicks: (number | null)[];
}

/** A counted claim: where to save the pass, the link's click it was, and whether an earlier claim with its key was. */
export interface Claimed {
  walletUrl: string;
  clicks: number;
  replayed: boolean;
}

/** Who claims: the name the recipient gave (null: none) and their device ("iPhone"; null: not known). */
export interface Claimant {
  name: string | null;
  device: string | null;
}

const NOBODY: Claimant = { name: null, device: null };

interface Waiting {
  key: string | null;
  claimant: Claimant;
  /** The claim's PIN was checked against this hash (LinkPins); null: the claim brought none. */
  pinHash: string | null;
  resolve: (claimed: Omit<Claimed, 'walletUrl'> & { walletUrl: string | null }) => void;
  reject: (err: unknown) => void;
}

interface Line {
  waiting: Waiting[];
  /** Statements under way (at most UNDER_WAY). */
  running: number;
  /** A drain is scheduled for this turn of the event loop. */
  starting: boolean;
  code: string;
  /** The PIN hash its claims were checked against (null: claims without a PIN). */
  pinHash: string | null;
}

export class LinkNotFoundError extends DomainError {
  constructor() {
    super(LINK_MESSAGES.notFound, 'LINK_NOT_FOUND', 404);
  }
}

/** A link with a PIN, claimed without one (401). */
export class PinRequiredError extends DomainError {
  constructor() {
    super(LINK_MESSAGES.pinRequired, 'PIN_REQUIRED', 401);
  }
}

/** A wrong PIN (401): counted on the link (its owner is told of many), and on the device's and address's tries. */
export class PinInvalidError extends DomainError {
  constructor() {
    super(LINK_MESSAGES.pinInvalid, 'PIN_INVALID', 401);
  }
}

/**
 * A link that exists and answers no: 410 with why (docs/reference.md "Link states": 'Limit Reached', 'Expired',
 * withdrawn).
 */
export class LinkGoneError extends DomainError {
  constructor(readonly state: Exclude<LinkState, 'active'>) {
    super(LINK_MESSAGES[state], LINK_STATE_CODES[state], 410);
  }
}

@Injectable()
export class LinkClaims {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly outbox: ClickOutbox,
    private readonly pusher: ClickPusher,
    private readonly metrics: Metrics,
  ) {}

  /** Tells the subscriptions (and, with events kept elsewhere, the outbox) that clicks were recorded. */
  private readonly recorded = throttle(WAKE_EVERY_MS, () => {
    if (this.store.logInDatabase) this.store.appendedInDatabase(['LinkClicked']);
    else this.outbox.moveSoon();
  });

  /** What the recipient page shows; counts nothing (link unfurlers and previews fetch it too). */
  async view(code: string): Promise<PublicLink> {
    const [row] = await this.database.query<LinkRow>(LINK_SQL, [code], 'seatlink_link_view');
    if (!row) throw new LinkNotFoundError();
    const seat = { section: row.section, row: row.row, seat: row.seat };
    return {
      state: row.state,
      pin: row.state === 'active' ? row.pin : 'none',
      expires_at: row.expires_at ? new Date(row.expires_at).toISOString() : null,
      ticket: {
        title: row.title ?? 'This ticket is no longer available',
        subtitle: row.subtitle,
        logo: row.logo,
        venue_name: row.venue_name,
        seat_info: seatInfoCombined(seat),
        next_game: row.next_game,
        next_game_date: row.next_game_date,
      },
    };
  }

  /**
   * Counts one click and answers where to save the pass; 404 for an unknown code, 410 when the link says no. With a
   * key given a click before (within 24 hours), answers that click again and counts nothing.
   */
  async claim(
    code: string,
    fallbackUrl: string,
    key: string | null = null,
    pinHash: string | null = null,
    claimant: Claimant = NOBODY,
  ): Promise<Claimed> {
    // Claims whose PIN was checked go in statements of their own (their hash is one more parameter).
    const lineId = pinHash === null ? code : `${code} ${pinHash}`;
    const claimed = await new Promise<Parameters<Waiting['resolve']>[0]>((resolve, reject) => {
      let line = this.lines.get(lineId);
      if (!line) {
        line = { waiting: [], running: 0, starting: false, code, pinHash };
        this.lines.set(lineId, line);
      }
      line.waiting.push({ key, claimant, pinHash, resolve, reject });
      if (!line.starting && line.running < UNDER_WAY) {
        // The claims of this link read from the sockets in this turn of the event loop go in one statement (sent
        // once the turn's I/O is handled), not the first claim alone while the rest wait for it.
        line.starting = true;
        const started = line;
        setImmediate(() => {
          started.starting = false;
          void this.drain(lineId, started);
        });
      }
    });
    return { ...claimed, walletUrl: claimed.walletUrl ?? fallbackUrl };
  }

  /** Per link, the claims waiting for a statement and the statements under way; present while any wait or run. */
  private readonly lines = new Map<string, Line>();

  /** Runs a link's claims, a batch per statement, until none wait. */
  private async drain(lineId: string, line: Line) {
    line.running++;
    try {
      while (line.waiting.length > 0) {
        const batch = line.waiting.splice(0, MAX_BATCH);
        let row: ClaimRow | undefined;
        try {
          row = await this.count(line.code, line.pinHash, batch);
        } catch (err) {
          for (const w of batch) w.reject(err);
          continue;
        }
        // The link's next batch goes while this one waits for the disk: nothing is answered before it is durable.
        const counted = row;
        this.database
          .durable()
          .then(() => this.answer(counted, line.pinHash, batch))
          .catch((err: unknown) => {
            // A claim answered already stays answered (a promise settles once).
            for (const w of batch) w.reject(err);
          });
      }
    } finally {
      line.running--;
      if (line.running === 0 && !line.starting && line.waiting.length === 0) this.lines.delete(lineId);
    }
  }

  /** Counts a batch of a link's claims (committed without waiting for the disk); its row, none for an unknown code. */
  private async count(code: string, pinHash: string | null, batch: Waiting[]): Promise<ClaimRow | undefined> {
    const keys = batch.map((w) => w.key);
    const claimants = JSON.stringify(batch.map((w) => w.claimant));
    const [row] = await this.database.query<ClaimRow>(
      CLAIM_SQL,
      [code, keys, pinHash, this.store.logInDatabase, claimants],
      'seatlink_link_claim',
    );
    return row;
  }

  /** Answers a batch's claims once its count is durable, and tells the subscriptions and the owner's screens. */
  private answer(row: ClaimRow | undefined, pinHash: string | null, batch: Waiting[]): void {
    if (!row) {
      const gone = new LinkNotFoundError();
      for (const w of batch) w.reject(gone);
      return;
    }
    if (row.state === 'pin_required') {
      // No PIN, or a PIN checked against one the owner has since replaced: nothing was counted.
      const refusal = pinHash === null ? new PinRequiredError() : new PinInvalidError();
      for (const w of batch) w.reject(refusal);
      return;
    }
    const before = Number(row.before);
    const after = Number(row.after);
    // Claims refused while the link was live were past its limit. (One error for all of them, made only when needed.)
    let refusal: LinkGoneError | undefined;
    const answered = new Set<number>();
    // Who made the link's last click of this batch (the owner's card says "claimed by …").
    let last: { n: number; claimant: Claimant } | undefined;
    for (const [i, w] of batch.entries()) {
      const n = row.clicks[i];
      if (n === null || n === undefined) {
        w.reject((refusal ??= new LinkGoneError(row.state === 'active' ? 'limit_reached' : row.state)));
        continue;
      }
      // A click of this batch, the first time it is answered (a key sent twice in one batch is one click).
      const fresh = n > before && !answered.has(n);
      if (fresh) {
        answered.add(n);
        if (!last || n > last.n) last = { n, claimant: w.claimant };
      }
      w.resolve({ walletUrl: row.save_url, clicks: n, replayed: !fresh });
    }
    if (after > before) {
      // Their events are in the log (or the outbox) already: the subscriptions are told, the owner's screens too.
      this.metrics.linkClicks.inc(after - before);
      this.recorded();
      this.pusher.clicked({
        userId: row.user_id,
        ticketId: row.ticket_id,
        distributionId: row.distribution_id,
        clicks: after,
        claimedBy: last && {
          ...last.claimant,
          at: new Date(row.last_click_at ?? Date.now()).toISOString(),
        },
      });
    }
  }
}
