import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { queryRows } from '../db/database.js';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port.js';
import type { LiveUpdate, Projection } from './projection.js';

/** Advisory-lock key of the projector: exactly one process projects at a time. */
export const PROJECTOR_LOCK_KEY = 7310002;
export const CHECKPOINT = 'read-models';

export interface ProjectorOptions {
  batchSize?: number;
  /** Fallback poll, in case a wake-up was missed. */
  pollMs?: number;
  /** How often a standby process retries for the lock. */
  lockRetryMs?: number;
  onLive?: (updates: LiveUpdate[]) => void;
  onError?: (err: unknown) => void;
}

/**
 * Reads the global feed in batches and, for each batch, writes the read-model rows and the checkpoint in one
 * transaction: a crash never applies an event twice nor skips one. Live updates go out after the commit.
 */
export class Projector {
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly lockRetryMs: number;
  private running = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private pending = false;
  private loop: Promise<void> | null = null;
  private readonly byType = new Map<string, Projection[]>();

  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectorOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 1000;
    this.lockRetryMs = options.lockRetryMs ?? 2000;
    for (const p of projections) {
      for (const type of p.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), p]);
    }
  }

  /** Starts following the feed in the background (waiting for the lock if another process holds it). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run().catch((err) => this.options.onError?.(err));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    this.running = false;
  }

  private async run(): Promise<void> {
    let lock = await this.database.tryAdvisoryLock(PROJECTOR_LOCK_KEY);
    while (!lock && !this.stopped) {
      await this.sleep(this.lockRetryMs);
      lock = await this.database.tryAdvisoryLock(PROJECTOR_LOCK_KEY);
    }
    if (!lock) return;
    const unlisten = await this.store.onAppended(() => this.nudge());
    try {
      while (!this.stopped) {
        try {
          while (!this.stopped && (await this.step()) === this.batchSize);
        } catch (err) {
          this.options.onError?.(err);
        }
        await this.sleep(this.pollMs);
      }
    } finally {
      await unlisten();
      await lock.release();
    }
  }

  private nudge() {
    this.pending = true;
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        this.pending = false;
        done();
      };
    });
  }

  /** Projects one batch; answers how many events it read. */
  async step(): Promise<number> {
    const from = await this.checkpoint();
    const batch = await this.store.readAll(from, this.batchSize);
    if (batch.length === 0) return 0;
    const live: LiveUpdate[] = [];
    await this.database.db.transaction(async (tx) => {
      // The compare-and-set guards against a second projector that somehow holds no lock.
      const updated = await queryRows<{ name: string }>(
        tx,
        sql`insert into projection_checkpoints (name, position, updated_at)
            values (${CHECKPOINT}, ${batch[batch.length - 1]!.position}, now())
            on conflict (name) do update set position = excluded.position, updated_at = now()
            where projection_checkpoints.position is not distinct from ${from}
            returning name`,
      );
      if (updated.length === 0) throw new Error('Projection checkpoint moved under this projector');
      for (const event of batch) await this.apply(event, tx, live);
    });
    if (live.length > 0) this.options.onLive?.(live);
    return batch.length;
  }

  private async apply(event: RecordedEvent, tx: Parameters<Projection['apply']>[1]['tx'], live: LiveUpdate[]) {
    for (const projection of this.byType.get(event.type) ?? []) {
      await projection.apply(event, { tx, push: (u) => live.push(u as LiveUpdate) });
    }
  }

  /**
   * Projects every event committed before the call (used by replay and tests). An empty batch does not mean the end:
   * events behind a still-open transaction become readable only once it ends, so this waits for them.
   */
  async catchUp(): Promise<number> {
    const head = await this.store.headPosition();
    let total = 0;
    for (;;) {
      const checkpoint = await this.checkpoint();
      if (head === null || (checkpoint !== null && this.store.comparePositions(checkpoint, head) >= 0)) return total;
      const n = await this.step();
      total += n;
      if (n === 0) await new Promise((r) => setTimeout(r, 10));
    }
  }

  async checkpoint(): Promise<string | null> {
    return readCheckpoint(this.database);
  }

  /** Empties every read model and its checkpoint, then replays the whole feed. Needs the projector lock. */
  async rebuild(): Promise<number> {
    const lock = await this.database.tryAdvisoryLock(PROJECTOR_LOCK_KEY);
    if (!lock) throw new Error('Another projector is running; stop it before a rebuild');
    try {
      const tables = [...new Set(this.projections.flatMap((p) => p.tables))];
      await this.database.db.transaction(async (tx) => {
        if (tables.length > 0) await tx.execute(sql.raw(`truncate ${tables.map((t) => `"${t}"`).join(', ')}`));
        await tx.execute(sql`delete from projection_checkpoints where name = ${CHECKPOINT}`);
      });
      return await this.catchUp();
    } finally {
      await lock.release();
    }
  }
}

export async function readCheckpoint(database: Database): Promise<string | null> {
  const [row] = await queryRows<{ position: string | null }>(
    database.db,
    sql`select position from projection_checkpoints where name = ${CHECKPOINT}`,
  );
  return row?.position ?? null;
}
