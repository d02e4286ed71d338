import { Mutex } from 'async-mutex';

/**
 * One at a time per key, in this process: commands on one hot stream (a user's credits under a burst of requests)
 * take turns here instead of all reading the same revision and retrying against each other. Across processes the
 * stream's expected revision still decides; this only spares the retries.
 */
export class KeyedMutex {
  private readonly locks = new Map<string, { mutex: Mutex; holders: number }>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let entry = this.locks.get(key);
    if (!entry) {
      entry = { mutex: new Mutex(), holders: 0 };
      this.locks.set(key, entry);
    }
    entry.holders++;
    try {
      return await entry.mutex.runExclusive(work);
    } finally {
      entry.holders--;
      if (entry.holders === 0) this.locks.delete(key);
    }
  }

  /** Keys held or waited for now (for tests: none are left behind). */
  get size(): number {
    return this.locks.size;
  }
}
