export interface HealthResponse {
  status: 'ok' | 'degraded';
  database: 'up' | 'down';
  redis: 'up' | 'down' | 'not configured';
  projector: { lag: number; checkpoint: string | null };
}
