import { Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { type TimeSource, useTimeSource } from '../../shared/clock.js';
import { safeErrorMessage } from './db-errors.js';
import type { Database } from './database.js';

/** How often the database's time is read again (the process's monotonic clock carries it in between). */
const SAMPLE_EVERY_MS = 10_000;
/** Readings of the database's time per sample (the one with the shortest round trip is kept). */
const READINGS = 3;
/** A process clock this far from the database's is said in the log (once per change of a second or more). */
const SKEW_WORTH_SAYING_MS = 1_000;

/**
 * The database's clock, in this process, with no round trip per reading: the database's time is read now and then
 * (`clock_timestamp()`, at the middle of the round trip), and carried forward by the process's monotonic clock, which
 * no change of the wall clock moves. Registered as the process's clock (shared/clock.ts) once it has read it.
 */
export class DatabaseClock implements TimeSource {
  private readonly logger = new Logger('Clock');
  private base: { databaseMs: number; at: number } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private saidSkew = 0;

  constructor(private readonly database: Database) {}

  /** Reads the database's time, registers this clock, and keeps reading it; a database away keeps the last reading. */
  async start(): Promise<void> {
    await this.sample();
    useTimeSource(this);
    this.timer = setInterval(() => void this.sample().catch(() => undefined), SAMPLE_EVERY_MS);
    this.timer.unref();
  }

  now(): Date {
    if (!this.base) return new Date();
    return new Date(this.base.databaseMs + (performance.now() - this.base.at));
  }

  /** How far the process's wall clock is from the database's (positive: the process is ahead). */
  skewMs(): number {
    return Date.now() - this.now().getTime();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    useTimeSource(null);
  }

  private async sample(): Promise<void> {
    try {
      // Of a few readings, the one with the shortest round trip: its middle is nearest the moment the server read.
      let best: { databaseMs: number; at: number; roundTrip: number } | null = null;
      for (let i = 0; i < READINGS; i++) {
        const before = performance.now();
        const [row] = await this.database.query<{ ms: number }>(
          `select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
        );
        const after = performance.now();
        if (!best || after - before < best.roundTrip) {
          best = { databaseMs: Number(row!.ms), at: (before + after) / 2, roundTrip: after - before };
        }
      }
      this.base = { databaseMs: best!.databaseMs, at: best!.at };
    } catch (err) {
      if (!this.base) throw err;
      this.logger.debug(`the database's time not read again yet: ${safeErrorMessage(err)}`);
      return;
    }
    const skew = Math.round(this.skewMs() / SKEW_WORTH_SAYING_MS);
    if (skew !== this.saidSkew) {
      this.saidSkew = skew;
      if (skew !== 0) {
        this.logger.warn(
          `this process's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the database's: ` +
            'expiries, sessions and event times follow the database',
        );
      }
    }
  }
}
