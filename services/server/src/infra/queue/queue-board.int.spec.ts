import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { testEnv } from '../../testing/test-database.js';

describe.skipIf(!testEnv.redisUrl)('the queue board for admins (Bull Board, with Redis)', () => {
  let stack: TestStack;
  let admin: ApiClient;
  let user: ApiClient;

  beforeAll(async () => {
    stack = await startTestStack();
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    await user.login('user@seatlink.test', 'User1234!');
  }, 60_000);
  afterAll(async () => stack?.close());

  it('shows every queue to admins, with its jobs', async () => {
    const page = await admin.request('GET', '/v1/admin/queues');
    expect(page.status).toBe(200);
    expect(page.body as unknown as string).toContain('<html');
    const queues = await admin.request('GET', '/v1/admin/queues/api/queues');
    expect(queues.status).toBe(200);
    const names = (queues.body as unknown as { queues: Array<{ name: string }> }).queues.map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining(['wallet-sync', 'maintenance', 'identity']));
  });

  it('refuses everyone else: 401 without a session, 403 for a user who is not an admin', async () => {
    for (const path of ['/v1/admin/queues', '/v1/admin/queues/api/queues']) {
      expect((await new ApiClient(stack.baseUrl).request('GET', path)).status).toBe(401);
      expect((await user.request('GET', path)).status).toBe(403);
    }
    // Nor can anyone else retry or clean jobs.
    const clean = await user.request('PUT', '/v1/admin/queues/api/queues/maintenance/clean/failed');
    expect(clean.status).toBe(403);
  });
});
