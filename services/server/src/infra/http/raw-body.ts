import type { FastifyInstance, FastifyRequest } from 'fastify';

const RAW_BODY = Symbol('seatlink.raw-body');

/**
 * Keeps the exact text of JSON bodies sent to `paths` (a webhook's signature is over the bytes as sent, not over
 * JSON re-serialised). Parsing stays Fastify's own (secure-json-parse: no prototype poisoning, empty bodies refused).
 */
export function keepRawJsonBody(fastify: FastifyInstance, paths: readonly string[]): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const path = request.url.split('?')[0]!;
    if (paths.includes(path)) (request as unknown as Record<symbol, string>)[RAW_BODY] = body as string;
    void parseJson(request, body as string, done);
  });
}

/** The body of the request exactly as sent, where `keepRawJsonBody` kept it. */
export function rawBodyOf(request: FastifyRequest): string | undefined {
  return (request as unknown as Record<symbol, string | undefined>)[RAW_BODY];
}
