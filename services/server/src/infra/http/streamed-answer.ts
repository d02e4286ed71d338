import { PassThrough, pipeline, Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { rootCause } from '../db/db-errors.js';
import { loggableError } from './http-exception.filter.js';

const logger = new Logger('Http');

type Stage = NodeJS.ReadWriteStream;

/**
 * The one way a call answers with a stream (an export of any size): `source` (rows from the database, a batch at a
 * time) through `stages` (a CSV writer) to the client.
 *
 * An error anywhere on the way ends that answer and nothing else. Streams joined with `.pipe()` leave an error of
 * the source without a listener, and Node turns an unheard 'error' into an uncaught exception: the whole process
 * exits, and its crash report prints the error, query parameters and all (an admin's CSV export with a date the
 * database refused did exactly that). Here every stage is joined by `pipeline`, which hears every error and
 * destroys every stage (the source's query loop stops):
 * - before the first byte, the error reaches the exception filter like any other (a 500, or a 503 when the
 *   database is away), which logs it without the query's parameters;
 * - after it, the answer is cut off (the client sees an incomplete response, never a complete-looking file) and the
 *   failure is logged here, also without the query's parameters;
 * - a client that goes away stops the source too, and is not an error of the server.
 */
export function sendStreamed(
  reply: FastifyReply,
  what: string,
  source: AsyncIterable<unknown> | Readable,
  ...stages: Stage[]
): FastifyReply {
  let sentWhenFailed = false;
  const answer = new PassThrough({
    // What Fastify and the exception filter get to see of a failure: the driver's own error, not drizzle's wrapper
    // (whose message carries the query's parameters).
    destroy(error, callback) {
      if (error) sentWhenFailed = reply.raw.headersSent;
      callback(error ? (rootCause(error) as Error) : null);
    },
  });
  const input = source instanceof Readable ? source : Readable.from(source);
  pipeline([input, ...stages, answer], (error) => {
    if (!error || !sentWhenFailed || isClientGone(error)) return;
    logger.error(`${what} ended early: ${loggableError(error)}`);
  });
  return reply.send(answer);
}

/** The client closed the connection (or Fastify closed the answer because of it): nothing failed on this side. */
const isClientGone = (error: Error) => (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';
