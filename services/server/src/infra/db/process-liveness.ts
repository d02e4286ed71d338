import { randomInt } from 'node:crypto';
import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Backoff } from '../../shared/backoff.js';
import { safeErrorMessage } from './db-errors.js';
import type { Database, HeldLock } from './database.js';

/** `pg_locks.classid` of the processes' liveness locks (the high half of their advisory lock keys). */
const LIVENESS_CLASS = 0x5e47;

/**
 * Tells whether the process that took something (an Idempotency-Key of a request it runs) is still alive, so what a
 * dead process held is free at once instead of after a fixed lease.
 *
 * Each process holds a PostgreSQL advisory lock of its own (`owner`) on a connection of its own for as long as it
 * lives: when the process dies — killed, crashed, its machine gone — the server ends its session and the lock goes with
 * it, at once. What a process takes records its `owner`; `aliveSql` is true while that owner's lock is held. A process
 * alive but cut off from the database counts as dead too (it cannot finish what it holds); what it holds may then run
 * twice, which every command allows (their ids derive from the request). The lock is taken again when its connection
 * comes back.
 */
export class ProcessLiveness implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ProcessLiveness');
  /** This process's key: recorded on what it takes. */
  owner = randomInt(1, 2 ** 31);
  private lock: HeldLock | null = null;
  private stopped = false;
  private holding: Promise<void> | null = null;

  constructor(private readonly database: Database) {}

  async onModuleInit() {
    // A database away at start must not stop the process: the lock is taken as soon as it answers.
    await this.take().catch((err: unknown) => {
      this.logger.warn(`liveness lock not taken yet: ${safeErrorMessage(err)}`);
      this.keep();
    });
  }

  async onApplicationShutdown() {
    this.stopped = true;
    await this.lock?.release();
    this.lock = null;
  }

  /**
   * SQL that is true while the process whose key is in `column` is alive (`column` is a trusted column name of the
   * statement, holding an owner key).
   */
  aliveSql(column: string): string {
    return `exists (select 1 from pg_locks l
                     where l.locktype = 'advisory' and l.granted and l.objsubid = 1
                       and l.classid = ${LIVENESS_CLASS} and l.objid = (${column})::bigint::oid
                       and l.database = (select oid from pg_database where datname = current_database()))`;
  }

  /** Takes this process's lock (another key when a process holds this one), and keeps it. */
  private async take() {
    for (let tries = 0; ; tries++) {
      const lock = await this.database.tryAdvisoryLock(LIVENESS_CLASS * 2 ** 32 + this.owner);
      if (lock) {
        this.lock = lock;
        void lock.lost.then(() => {
          if (this.lock !== lock) return;
          this.lock = null;
          this.logger.warn('liveness lock lost with its connection: taking it again');
          this.keep();
        });
        return;
      }
      if (tries >= 5) throw new Error('no free liveness key');
      this.owner = randomInt(1, 2 ** 31);
    }
  }

  /** Takes the lock again, with backoff, until it holds or the process stops. */
  private keep() {
    this.holding ??= (async () => {
      const backoff = new Backoff({ initialMs: 200, maxMs: 5000 });
      while (!this.stopped && !this.lock) {
        await new Promise((resolve) => setTimeout(resolve, backoff.next()).unref());
        if (this.stopped) break;
        await this.take().catch(() => undefined);
      }
    })().finally(() => (this.holding = null));
  }
}
