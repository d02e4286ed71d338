import { Inject, Injectable } from '@nestjs/common';
import {
  LINK_MESSAGES,
  LINK_STATE_CODES,
  type LinkState,
  type PublicLink,
  seatInfoCombined,
} from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { ClickPusher } from './click-pusher.service.js';
import { ClickRecorder } from './click-recorder.service.js';

/**
 * Counted clicks, decided by one conditional statement on the link's row: the counter goes up only while the link is
 * live (not recalled, not expired, its ticket still held) and never past its limit. The claims of one link that
 * arrive while its previous statement runs go in the next one together ($2 of them): it grants as many as the limit
 * leaves and answers the count before and after, so with a limit of 100 and any number of claimers at once exactly
 * 100 succeed — and a popular link costs one commit per batch, not one per click.
 */
const CLAIM_SQL = `
  with cur as (
    select l.distribution_id, l.clicks from links l
    where l.code = $1 and l.recalled_at is null
      and (l.expires_at is null or l.expires_at > now())
      and (l.max_clicks is null or l.clicks < l.max_clicks)
      and exists (select 1 from tickets t where t.id = l.ticket_id)
    for update
  )
  update links l
  set clicks = l.clicks + least($2::integer, coalesce(l.max_clicks - l.clicks, $2::integer)),
      last_click_at = date_trunc('milliseconds', now())
  from cur
  where l.distribution_id = cur.distribution_id
  returning l.distribution_id, l.ticket_id, l.user_id, cur.clicks as before, l.clicks as after, l.last_click_at,
            (select t.save_url from tickets t where t.id = l.ticket_id) as save_url`;

/** Claims of one link answered by one statement at most. */
const MAX_BATCH = 1000;

/** Why a link answers no (or that it would answer yes), without counting anything. */
const LINK_SQL = `
  select l.code, l.expires_at, l.max_clicks, l.clicks,
         case when l.recalled_at is not null or t.id is null then 'recalled'
              when l.expires_at is not null and l.expires_at <= now() then 'expired'
              when l.max_clicks is not null and l.clicks >= l.max_clicks then 'limit_reached'
              else 'active' end as state,
         t.title, t.subtitle, t.logo, t.venue_name, t.section, t.row, t.seat, t.next_game, t.next_game_date
  from links l left join tickets t on t.id = l.ticket_id
  where l.code = $1`;

interface LinkRow {
  code: string;
  expires_at: Date | string | null;
  max_clicks: number | null;
  clicks: number;
  state: LinkState;
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
  before: number;
  after: number;
  last_click_at: Date | string;
  save_url: string | null;
}

interface Waiting {
  resolve: (claimed: { walletUrl: string | null; clicks: number }) => void;
  reject: (err: unknown) => void;
}

export class LinkNotFoundError extends DomainError {
  constructor() {
    super(LINK_MESSAGES.notFound, 'LINK_NOT_FOUND', 404);
  }
}

/** A link that exists and answers no: 410 with why (SPEC.md: 'Limit Reached', 'Expired', withdrawn). */
export class LinkGoneError extends DomainError {
  constructor(readonly state: Exclude<LinkState, 'active'>) {
    super(LINK_MESSAGES[state], LINK_STATE_CODES[state], 410);
  }
}

@Injectable()
export class LinkClaims {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly recorder: ClickRecorder,
    private readonly pusher: ClickPusher,
  ) {}

  /** What the recipient page shows; counts nothing (link unfurlers and previews fetch it too). */
  async view(code: string): Promise<PublicLink> {
    const [row] = await this.database.query<LinkRow>(LINK_SQL, [code], 'seatlink_link_view');
    if (!row) throw new LinkNotFoundError();
    const seat = { section: row.section, row: row.row, seat: row.seat };
    return {
      state: row.state,
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

  /** Counts one click and answers where to save the pass; 404 for an unknown code, 410 when the link says no. */
  async claim(code: string, fallbackUrl: string): Promise<{ walletUrl: string; clicks: number }> {
    const claimed = await new Promise<{ walletUrl: string | null; clicks: number }>((resolve, reject) => {
      let queue = this.queues.get(code);
      if (!queue) {
        queue = [];
        this.queues.set(code, queue);
        // The claims of this link read from the sockets in this turn of the event loop go in its first statement
        // (sent once the turn's I/O is handled), not the first claim alone while the rest wait for it.
        const started = queue;
        setImmediate(() => void this.drain(code, started));
      }
      queue.push({ resolve, reject });
    });
    return { walletUrl: claimed.walletUrl ?? fallbackUrl, clicks: claimed.clicks };
  }

  /** Claims of one link waiting for the statement under way (or the first one); present while any wait or run. */
  private readonly queues = new Map<string, Waiting[]>();

  /** Runs a link's claims, a batch per statement, until none wait. */
  private async drain(code: string, queue: Waiting[]) {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        try {
          await this.grant(code, batch);
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.queues.delete(code);
    }
  }

  private async grant(code: string, batch: Waiting[]) {
    const [row] = await this.database.query<ClaimRow>(CLAIM_SQL, [code, batch.length], 'seatlink_link_claim');
    if (!row) {
      const { state } = await this.view(code);
      // Live a moment ago and full now (another process's claims took the last click), or gone since.
      const refusal = new LinkGoneError(state === 'active' ? 'limit_reached' : state);
      for (const w of batch) w.reject(refusal);
      return;
    }
    const before = Number(row.before);
    const after = Number(row.after);
    const at = new Date(row.last_click_at).toISOString();
    for (const [i, w] of batch.entries()) {
      if (before + i >= after) {
        w.reject(new LinkGoneError('limit_reached'));
        continue;
      }
      const n = before + i + 1;
      this.recorder.record({
        distributionId: row.distribution_id,
        ticketId: row.ticket_id,
        userId: row.user_id,
        n,
        at,
      });
      w.resolve({ walletUrl: row.save_url, clicks: n });
    }
    if (after > before) {
      this.pusher.clicked({
        userId: row.user_id,
        ticketId: row.ticket_id,
        distributionId: row.distribution_id,
        clicks: after,
      });
    }
  }
}
