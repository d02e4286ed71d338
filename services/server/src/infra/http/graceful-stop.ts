import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyHttpOptions } from 'fastify';
import type { Server, ServerResponse } from 'node:http';
import { sendError, unavailableAnswer } from './http-exception.filter.js';

/**
 * How long a stop waits for the requests under way to be answered before the application's modules close (a request
 * has bounds of its own on every wait; this one keeps a stop short whatever they are).
 */
export const STOP_DRAIN_MS = 10_000;

/**
 * The HTTP side of a graceful stop (SIGTERM, or `app.close()`). Nest calls the adapter's `beforeClose` before any
 * shutdown hook runs; from then on:
 * - a new request is answered 503 `UNAVAILABLE` with `Retry-After: 1` and `Connection: close`, and nothing else is run
 *   for it: its client (a load balancer, a browser) goes to another process or comes back after the restart;
 * - every answer still to come closes its connection, so a kept-alive connection ends with its last answer;
 * - the stop waits for the requests under way (at most STOP_DRAIN_MS) before the modules close, so none of them meets
 *   a closed job queue or stopped subscriptions.
 * Without this, requests went on being served on kept-alive connections while the modules closed, and the HTTP server's
 * close (which Nest reaches through socket.io's, before Fastify's own) waits for every connection to end: clients that
 * kept their connections busy kept the process running after SIGTERM, for good.
 *
 * `keepServing`: path prefixes still served while stopping (the mounted wallet simulator stands for a provider outside
 * the process, which the requests and jobs under way may still call).
 */
export class GracefulFastifyAdapter extends FastifyAdapter {
  private stopping = false;
  private readonly underWay = new Set<ServerResponse>();
  private drained: (() => void) | null = null;

  constructor(options: FastifyHttpOptions<Server>, { keepServing = [] }: { keepServing?: readonly string[] } = {}) {
    super(options);
    const served = (url: string) => keepServing.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
    const fastify = this.getInstance();
    fastify.addHook('onRequest', (request, reply, done) => {
      if (this.stopping && !served(request.url)) {
        void reply.header('connection', 'close');
        sendError(reply, unavailableAnswer());
        return;
      }
      const response = reply.raw;
      this.underWay.add(response);
      // `close`: the answer went, or the client went; either way nothing is under way for it any more.
      response.once('close', () => {
        this.underWay.delete(response);
        if (this.underWay.size === 0) this.drained?.();
      });
      done();
    });
    fastify.addHook('onSend', (_request, reply, payload, done) => {
      if (this.stopping) void reply.header('connection', 'close');
      done(null, payload);
    });
  }

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Nest awaits it (its HttpServer interface: "May return a promise; the core awaits it"); FastifyAdapter only declares it void
  override async beforeClose(): Promise<void> {
    super.beforeClose();
    this.stopping = true;
    if (this.underWay.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, STOP_DRAIN_MS);
      this.drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
