export interface SubscriptionHealth {
  name: string;
  kind: 'projection' | 'reaction';
  checkpoint: string | null;
  /** About how many events it is behind the head of the feed. */
  lag: number;
  parked: number;
}

/** GET /v1/admin/health (GET /health answers only `status`). */
export interface HealthResponse {
  status: 'ok' | 'degraded';
  database: 'up' | 'down';
  redis: 'up' | 'down' | 'not configured';
  /**
   * The circuit breakers of this process's Redis clients, taken together: `open` while any fails its calls at once
   * (Redis did not answer one in time a moment ago), `half-open` while one's probe waits for Redis to answer.
   */
  redisBreaker: 'closed' | 'open' | 'half-open' | 'not configured';
  /** Why it is degraded; empty when ok. */
  problems: string[];
  feed: {
    head: string | null;
    subscriptions: SubscriptionHealth[];
    host: { owner: string; heartbeatAgeSeconds: number } | null;
    oldestTransactionSeconds: number | null;
    /** How long the oldest committed event the feed cannot show yet has waited; null when none waits. */
    heldBackSeconds: number | null;
    /** Whether a process holds the subscriptions' lock now. */
    hostHoldsLock: boolean;
    parked: number;
  } | null;
}

/** One event a subscription gave up on (GET /v1/admin/parked-events). */
export interface ParkedEventView {
  id: string;
  subscription: string;
  event_id: string;
  event_type: string;
  stream_id: string;
  position: string;
  error: string;
  attempts: number;
  parked_at: string;
  status: 'parked' | 'retried' | 'skipped';
  resolved_at: string | null;
  resolved_by: string | null;
}
