import type { FastifyInstance, FastifyRequest } from 'fastify';

const RAW_BODY = Symbol('seatlink.raw-body');

/**
 * Fastify's own JSON parsing (secure-json-parse: no prototype poisoning), with two changes: an empty body with a JSON
 * content type is no body (a call without one, such as a recall, sent by a client that always sets the header),
 * and the exact text of bodies sent to `paths` is kept (a webhook's signature is over the bytes as sent, not over
 * JSON re-serialised).
 */
export function keepRawJsonBody(fastify: FastifyInstance, paths: readonly string[]): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const path = request.url.split('?')[0]!;
    if (paths.includes(path)) (request as unknown as Record<symbol, string>)[RAW_BODY] = body as string;
    if (body === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
}

/** The body of the request exactly as sent, where `keepRawJsonBody` kept it. */
export function rawBodyOf(request: FastifyRequest): string | undefined {
  return (request as unknown as Record<symbol, string | undefined>)[RAW_BODY];
}
