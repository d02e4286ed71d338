import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port.js';
import { readCheckpoint } from './projector.js';

/**
 * Read-your-writes: a command answers once the read models include its events, so the next query of the same
 * client sees them — also when the projector runs in another process.
 */
@Injectable()
export class ProjectionWaiter {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** Resolves true once the checkpoint has reached `position`, false after `timeoutMs`. */
  async waitFor(position: string | null, timeoutMs = 5000): Promise<boolean> {
    if (position === null) return true;
    const deadline = Date.now() + timeoutMs;
    for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
      const checkpoint = await readCheckpoint(this.database);
      if (checkpoint && this.store.comparePositions(checkpoint, position) >= 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
