import type { FastifyInstance, FastifyRequest } from 'fastify';

const RAW_BODY = Symbol('seatlink.raw-body');

/**
 * How deep a JSON body may nest arrays and objects. The API's own bodies nest four levels at most and a payment
 * provider's webhook about ten; past the limit the body is refused where it is parsed, once for every route, so no
 * later code that walks a body recursively (hashing it for an Idempotency-Key, validating it, logging it) can
 * overflow the stack: a body nested 5,000 deep did, as a 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests arrays and objects deeper than `max` (counted on the text, before parsing: no recursion). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** A body refused before it is parsed: a 400 with this message (the exception filter answers client errors so). */
class BodyTooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = 'BODY_TOO_DEEP';
  constructor() {
    super(`Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`);
  }
}

/**
 * Fastify's own JSON parsing (secure-json-parse: no prototype poisoning), with three changes: a body nested deeper than
 * MAX_JSON_DEPTH is refused, an empty body with a JSON content type is no body (a call without one, such as a recall,
 * sent by a client that always sets the header), and the exact text of bodies sent to `paths` is kept (a webhook's
 * signature is over the bytes as sent, not over JSON re-serialised).
 */
export function keepRawJsonBody(fastify: FastifyInstance, paths: readonly string[]): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new BodyTooDeepError(), undefined);
      return;
    }
    const path = request.url.split('?')[0]!;
    if (paths.includes(path)) (request as unknown as Record<symbol, string>)[RAW_BODY] = text;
    if (text === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}

/** The body of the request exactly as sent, where `keepRawJsonBody` kept it. */
export function rawBodyOf(request: FastifyRequest): string | undefined {
  return (request as unknown as Record<symbol, string | undefined>)[RAW_BODY];
}

/** A form post's body at most (a one-click unsubscribe sends `List-Unsubscribe=One-Click`). */
const MAX_FORM_BODY = 1024;

/**
 * Form posts (`application/x-www-form-urlencoded`, `multipart/form-data`) are taken only at `paths` (the one-click
 * unsubscribe of RFC 8058, which mail clients send so): there the body is read as text, small, and left to the route;
 * anywhere else the request is refused with 415, as before.
 */
export function acceptFormPosts(fastify: FastifyInstance, paths: readonly string[]): void {
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    fastify.addContentTypeParser(type, { parseAs: 'string', bodyLimit: MAX_FORM_BODY }, (request, body, done) => {
      if (paths.includes(request.url.split('?')[0]!)) {
        done(null, body);
        return;
      }
      // As Fastify refuses a type it has no parser for (the answer says to send JSON).
      const refused = Object.assign(new Error(`Unsupported Media Type: ${type}`), {
        statusCode: 415,
        code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      });
      done(refused, undefined);
    });
  }
}
