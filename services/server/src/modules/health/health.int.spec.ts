import type { HealthResponse } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../../testing/test-app.js';
import { testEnv } from '../../testing/test-database.js';

describe('GET /health', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  it('reports the database, Redis and the projector lag', async () => {
    const res = await fetch(`${stack.baseUrl}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as HealthResponse;
    expect(body.status).toBe('ok');
    expect(body.database).toBe('up');
    expect(body.redis).toBe(testEnv.redisUrl ? 'up' : 'not configured');
    expect(body.projector.lag).toBeGreaterThanOrEqual(0);
    expect(body.projector.checkpoint).toMatch(/^\d+:\d+$/);
  });
});
