import type { FastifyInstance, FastifyRequest } from 'fastify';

const STATUS = Symbol('seatlink.status');

/**
 * Answers this request with `status` instead of the route's own (a 202 for a change not visible yet, a 503 from the
 * health check). Nest applies the route's status after the handler and its interceptors, so the change is made in
 * Fastify's onSend hook, and only over a successful answer (an error keeps its status).
 */
export function overrideStatus(request: FastifyRequest, status: number): void {
  (request as unknown as Record<symbol, number>)[STATUS] = status;
}

export function overriddenStatus(request: FastifyRequest): number | undefined {
  return (request as unknown as Record<symbol, number | undefined>)[STATUS];
}

export function registerStatusOverride(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const status = overriddenStatus(request);
    if (status !== undefined && reply.statusCode < 300) void reply.code(status);
    done(null, payload);
  });
}
