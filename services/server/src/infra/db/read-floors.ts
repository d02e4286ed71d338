import type { Redis } from 'ioredis';
import { fromWalKey, type WalPosition, walKey } from './wal-position.js';

/**
 * What each reader must at least see: the primary's WAL position after their last write, after the last live update
 * sent to them, or after their last read from the primary (read-replicas.ts). A replica serves a reader only once it
 * has replayed past their floor, so nobody reads less than what they wrote or were told of.
 *
 * Shared by every process through Redis (a write on one API process, the next read on another), with a copy in
 * memory; without Redis (one process) the memory is the whole truth. When Redis cannot say (away, hung), a reader's
 * floor is unknown and their read goes to the primary.
 */
export class ReadFloors {
  private readonly local = new Map<string, { position: WalPosition; until: number }>();

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
    /** How long a floor is kept: past it, any replica in use has replayed it (their lag is bounded far below). */
    private readonly keepMs: number,
  ) {}

  private key(reader: string) {
    return `${this.prefix}:read-floor:${reader}`;
  }

  /** Raises the floors of these readers to `position` (a lower one is left as it is). */
  async raise(readers: readonly string[], position: WalPosition): Promise<void> {
    const until = Date.now() + this.keepMs;
    for (const reader of readers) {
      const held = this.local.get(reader);
      if (!held || held.position < position || held.until < Date.now()) this.local.set(reader, { position, until });
    }
    if (this.local.size > 100_000) this.forgetExpired();
    if (!this.redis || readers.length === 0) return;
    // Key by key (on a Redis Cluster each may be on another node).
    const redis = this.redis;
    await Promise.all(
      readers.map((reader) => redis.eval(RAISE_SCRIPT, 1, this.key(reader), walKey(position), String(this.keepMs))),
    );
  }

  /**
   * The highest floor of these readers (0 when none has one), or null when it cannot be known (Redis did not answer):
   * then only the primary may serve them.
   */
  async floorOf(readers: readonly string[]): Promise<WalPosition | null> {
    let floor = 0n;
    const now = Date.now();
    for (const reader of readers) {
      const held = this.local.get(reader);
      if (held && held.until >= now && held.position > floor) floor = held.position;
    }
    if (!this.redis || readers.length === 0) return floor;
    try {
      const redis = this.redis;
      for (const value of await Promise.all(readers.map((r) => redis.get(this.key(r))))) {
        const position = fromWalKey(value);
        if (position !== null && position > floor) floor = position;
      }
      return floor;
    } catch {
      return null;
    }
  }

  private forgetExpired() {
    const now = Date.now();
    for (const [reader, held] of this.local) if (held.until < now) this.local.delete(reader);
  }
}

/** Sets the key to the new position unless it holds a higher one (positions as 16 hex digits order as strings). */
const RAISE_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if (not held) or held < ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;
