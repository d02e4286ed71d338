import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, queryRows } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { EVENT_STORE, type EventStore, type PositionedEvent } from '../../infra/event-store/event-store.port.js';
import { throttledWarning } from '../../shared/throttled-warning.js';

/** Click events moved per transaction. */
const BATCH = 500;
/** How often the outbox is looked at for events a process left (it died between its claims and their move). */
const SWEEP_MS = 1000;

interface OutboxRow {
  event_id: string;
  stream_id: string;
  position: number;
  data: Record<string, unknown>;
}

/**
 * Moves the click events that claims left in `click_outbox` into an event store kept outside the database
 * (KURRENTDB_URL): a claim writes its events into the outbox in the transaction that counts it (so each is durable
 * before its answer), and each batch is deleted from the outbox in the transaction that records it in the store — a
 * batch recorded twice (the transaction failed after the store took it) records nothing twice, the store knowing its
 * event ids. Moved at once after each claim, and swept every second (`for update skip locked`: any number of
 * processes sweep together). With the SQL event store the claims write their events into the log themselves, and this
 * has nothing to do.
 */
@Injectable()
export class ClickOutbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Clicks');
  private readonly warn = throttledWarning((message) => this.logger.warn(message));
  private timer: NodeJS.Timeout | null = null;
  private moving: Promise<void> | null = null;
  private again = false;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  onApplicationBootstrap() {
    if (this.store.logInDatabase) return;
    this.timer = setInterval(() => this.moveSoon(), SWEEP_MS);
    this.timer.unref();
  }

  /** Moves what the outbox holds, soon (a move under way goes round once more). */
  moveSoon(): void {
    if (this.store.logInDatabase) return;
    if (this.moving) {
      this.again = true;
      return;
    }
    this.moving = this.flush()
      .catch((err: unknown) => this.warn('move', `click events wait in the outbox: ${safeErrorMessage(err)}`))
      .finally(() => {
        this.moving = null;
        if (this.again) {
          this.again = false;
          this.moveSoon();
        }
      });
  }

  /** Moves everything the outbox holds now into the event store (nothing with the SQL event store). */
  async flush(): Promise<void> {
    if (this.store.logInDatabase) return;
    while ((await this.moveBatch()) === BATCH);
  }

  private async moveBatch(): Promise<number> {
    return this.database.db.transaction(async (tx) => {
      const rows = await queryRows<OutboxRow>(
        tx,
        sql`delete from click_outbox where event_id in (
              select event_id from click_outbox order by created_at limit ${BATCH} for update skip locked)
            returning event_id, stream_id, position, data`,
      );
      if (rows.length === 0) return 0;
      const events: PositionedEvent[] = rows
        .sort((a, b) => a.stream_id.localeCompare(b.stream_id) || a.position - b.position)
        .map((r) => ({
          streamId: r.stream_id,
          revision: r.position,
          id: r.event_id,
          type: 'LinkClicked',
          data: r.data,
          metadata: {},
        }));
      await this.store.recordAtPositions(events);
      return rows.length;
    });
  }

  async beforeApplicationShutdown() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.moving;
  }
}
