import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { Metrics } from '../../infra/metrics/metrics.js';
import { EVENT_STORE, type EventStore, type PositionedEvent } from '../../infra/event-store/event-store.port.js';
import { throttledWarning } from '../../shared/throttled-warning.js';
import { clickStream, type LinkClicked } from './distribution.events.js';

/** How long a click waits for others to share its insert. */
const FLUSH_AFTER_MS = 50;
/** A batch is written at once when it reaches this size. */
const FLUSH_AT = 500;
/** Clicks kept while the database is away; past this the oldest are dropped (and said so). */
const MAX_BUFFERED = 100_000;

/**
 * Records counted clicks as events, in batches: a click is a fact (its link's counter already said yes), so there is
 * nothing to decide; clicks arriving within one window (FLUSH_AFTER_MS) go in with one multi-row insert, each at the
 * position its number gives it (the n-th click of a link is position n - 1 of the link's click stream), so a batch
 * written twice records nothing twice. While the database is away the clicks wait and are written when it is back; a
 * process stopping writes what it holds first. (A process that dies abruptly loses the clicks of its last window as
 * events; the link's counter has them.)
 */
@Injectable()
export class ClickRecorder implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Clicks');
  private readonly warn = throttledWarning((message) => this.logger.warn(message));
  private buffer: PositionedEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private failures = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly metrics: Metrics,
  ) {}

  record(click: LinkClicked['data'], metadata: Record<string, unknown> = {}): void {
    this.metrics.linkClicks.inc();
    this.buffer.push({
      streamId: clickStream(click.distributionId),
      revision: click.n - 1,
      id: randomUUID(),
      type: 'LinkClicked',
      data: click,
      metadata,
    });
    if (this.buffer.length > MAX_BUFFERED) {
      const dropped = this.buffer.length - MAX_BUFFERED;
      this.buffer.splice(0, dropped);
      this.warn('dropped', `${dropped} click event(s) dropped: the database has been away too long`);
    }
    if (this.buffer.length >= FLUSH_AT) void this.flush();
    else this.schedule(FLUSH_AFTER_MS);
  }

  /** Writes what is buffered now (and waits for a write under way). */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, FLUSH_AT);
    this.flushing = this.store
      .recordAtPositions(batch)
      .then(() => {
        this.failures = 0;
      })
      .catch((err: unknown) => {
        // Back in front, to be written when the database answers again.
        this.buffer.unshift(...batch);
        this.failures++;
        this.warn('write', `click events not written yet (${this.buffer.length} waiting): ${safeErrorMessage(err)}`);
      })
      .finally(() => {
        this.flushing = null;
        // The clicks that came in meanwhile wait their window too (a full batch goes at once): under a stream of
        // clicks, one insert per window, not one after another (each append wakes the subscriptions reading clicks).
        if (this.buffer.length >= FLUSH_AT && this.failures === 0) void this.flush();
        else if (this.buffer.length > 0) {
          this.schedule(this.failures > 0 ? Math.min(5000, 100 * 2 ** this.failures) : FLUSH_AFTER_MS);
        }
      });
    return this.flushing;
  }

  /** Clicks waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  async beforeApplicationShutdown() {
    for (let i = 0; i < 5 && (this.buffer.length > 0 || this.flushing); i++) await this.flush();
    if (this.timer) clearTimeout(this.timer);
    if (this.buffer.length > 0) this.logger.error(`${this.buffer.length} click event(s) not written at shutdown`);
  }

  private schedule(ms: number) {
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
    this.timer.unref();
  }
}
