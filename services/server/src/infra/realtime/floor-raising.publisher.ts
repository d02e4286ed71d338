import type { ReadReplicas } from '../db/read-replicas.js';
import type { LiveUpdate } from '../subscriptions/subscription.js';
import type { RealtimePublisher } from './realtime.publisher.js';

/**
 * With read replicas: before live updates go out, their readers' floors are raised to where the primary is (it holds
 * what the updates tell), so a dashboard that reads on being told reads from a replica only once it shows it
 * (infra/db/read-floors.ts). Updates keep their order; those that come while a raise runs go out together after the
 * next one. Without replicas, the updates go out at once as before.
 */
export class FloorRaisingPublisher implements RealtimePublisher {
  private waiting: LiveUpdate[] = [];
  private draining = false;

  constructor(
    private readonly inner: RealtimePublisher,
    private readonly replicas: ReadReplicas,
  ) {}

  publish(updates: readonly LiveUpdate[]): void {
    if (!this.replicas.enabled) {
      this.inner.publish(updates);
      return;
    }
    this.waiting.push(...updates);
    if (!this.draining) void this.drain();
  }

  private async drain() {
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        const readers = new Set(batch.map((u) => (u.to === 'admins' ? 'admins' : u.to.userId)));
        // Never throws: a floor that cannot be raised is logged, and the updates still go.
        await this.replicas.raiseToPrimary([...readers]);
        this.inner.publish(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  disconnectUser(userId: string, reason: string): void {
    this.inner.disconnectUser(userId, reason);
  }

  disconnectSession(sessionId: string, reason: string): void {
    this.inner.disconnectSession(sessionId, reason);
  }
}
