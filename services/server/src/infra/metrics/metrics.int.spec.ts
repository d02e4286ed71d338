import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { MetricsServer } from './metrics.module.js';

describe('/metrics (Prometheus, on a port of its own)', () => {
  let stack: TestStack;
  let metricsUrl: string;

  beforeAll(async () => {
    stack = await startTestStack({ env: { METRICS_PORT: '0' } });
    metricsUrl = `http://127.0.0.1:${stack.app.get(MetricsServer).port}`;
  }, 60_000);
  afterAll(async () => stack?.close());

  const scrape = async () => {
    const res = await fetch(`${metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  it('times HTTP answers by route pattern, method and status, never by raw path', async () => {
    const user = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
    for (let i = 0; i < 3; i++) expect((await user.request('GET', '/v1/me')).status).toBe(200);
    await fetch(`${stack.baseUrl}/v1/links/secret-code-123`);
    const text = await scrape();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('seatlink_http_request_duration_seconds_count{') && l.includes('route="/v1/me"'));
    expect(line).toContain('method="GET"');
    expect(line).toContain('status_code="200"');
    expect(Number(line!.split(' ').at(-1))).toBeGreaterThanOrEqual(3);
    expect(text).toContain('route="/v1/links/:code"');
    expect(text).not.toContain('secret-code-123');
  });

  it('shows subscription lags and parked events, queues, sockets, clicks and the process’s own figures', async () => {
    const text = await scrape();
    expect(text).toMatch(/seatlink_subscription_lag_events\{[^}]*subscription="balances"[^}]*\} \d+/);
    expect(text).toMatch(/seatlink_subscription_parked_events\{[^}]*subscription="balances"[^}]*\} 0/);
    expect(text).toMatch(/seatlink_queue_jobs\{[^}]*state="waiting"[^}]*\} \d+/);
    expect(text).toMatch(/seatlink_sockets_connected\{[^}]*\} \d+/);
    expect(text).toContain('seatlink_link_clicks_total');
    expect(text).toContain('seatlink_nodejs_eventloop_lag_seconds');
    expect(text).toContain('role="all"');
  });

  it('answers nothing else on its port', async () => {
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
