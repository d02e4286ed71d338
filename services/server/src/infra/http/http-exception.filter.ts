import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { ErrorResponse } from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { InvalidEventDataError, WrongExpectedRevisionError } from '../event-store/event-store.port.js';
import { errorCode, rootCause, safeErrorMessage } from '../db/db-errors.js';
import { reportIfTimeout, timeoutKind } from '../db/timeout-report.js';
import { isRedisUnavailableError } from '../redis/redis-client.js';
import { isTransientFailure } from '../transient-failure.js';
import type { WebApp } from './web-app.js';

function messageOf(body: unknown, fallback: string): string {
  if (typeof body === 'string') return body;
  if (body && typeof body === 'object' && 'message' in body) {
    const m = body.message;
    if (Array.isArray(m)) return m.map(String).join('; ');
    if (typeof m === 'string') return m;
  }
  return fallback;
}

/** What an error answers (the contracts' `Error`): `message` always a string (the web's request helper shows it). */
type ErrorBody = ErrorResponse;

const logger = new Logger('Http');

/** A request the service cannot serve this moment (a dependency away, the process stopping): come back in a second. */
export function unavailableAnswer(): ErrorBody {
  return {
    message: 'The service is unavailable for a moment. Please try again.',
    code: 'UNAVAILABLE',
    statusCode: 503,
    retryAfterSeconds: 1,
  };
}

/** The JSON body an error leaves as; its `statusCode` is the answer's status (logged when it is the server's fault). */
export function errorAnswer(exception: unknown): ErrorBody {
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    const extra = response && typeof response === 'object' ? (response as Record<string, unknown>) : {};
    return {
      message: messageOf(response, exception.message),
      ...(typeof extra.code === 'string' ? { code: extra.code } : {}),
      // Nest's "error" (the status name, or the failure text where a call's contract puts it there).
      ...(typeof extra.error === 'string' ? { error: extra.error } : {}),
      ...(typeof extra.retryAfterSeconds === 'number' ? { retryAfterSeconds: extra.retryAfterSeconds } : {}),
      statusCode: exception.getStatus(),
    };
  }
  if (exception instanceof DomainError) {
    return { ...exception.details, message: exception.message, code: exception.code, statusCode: exception.status };
  }
  if (exception instanceof WrongExpectedRevisionError) {
    // Retries ran out under heavy contention on one stream: nothing was written; the client may try again.
    return { message: 'This changed at the same time elsewhere. Please try again.', code: 'CONFLICT', statusCode: 409 };
  }
  if (exception instanceof InvalidEventDataError) {
    // Text the database cannot keep (a NUL character): nothing was written.
    return {
      message: 'The request contains characters that cannot be stored',
      code: 'INVALID_CHARACTERS',
      statusCode: 400,
    };
  }
  if (isClientError(exception)) {
    // Fastify's own errors: malformed JSON, body too large, unsupported media type...
    return { message: clientMessage(exception), statusCode: exception.statusCode };
  }
  if (isTransientFailure(exception)) {
    const what = isRedisUnavailableError(exception) ? 'Redis' : 'Database';
    if (timeoutKind(exception) !== null) reportIfTimeout(exception, 'a request');
    else logger.warn(`${what} unavailable: ${safeErrorMessage(rootCause(exception))}`);
    return unavailableAnswer();
  }
  logger.error(loggableError(exception));
  return { message: 'Something went wrong', statusCode: 500 };
}

/**
 * An unexpected error as a log line may show it: the driver's error and stack, never drizzle's wrapper (its message
 * carries the query's parameters, which may be hashes or tokens), and never the value PostgreSQL quotes back from a
 * parameter it refused (`invalid input syntax for type uuid: "…"`).
 */
export function loggableError(exception: unknown): string {
  const root = rootCause(exception);
  const text = root instanceof Error && root.stack ? root.stack : safeErrorMessage(exception);
  return errorCode(root) === undefined ? text : text.replace(/^(.*?: )".*"/gm, '$1"…"');
}

/** Sends an error as every call answers one (`errorAnswer`), with Retry-After when the client should come back. */
export function sendError(reply: FastifyReply, body: ErrorBody): void {
  if (body.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(body.retryAfterSeconds));
  // JSON whatever the call answers when it succeeds (a CSV export that failed before its first byte).
  void reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * Every error leaves as JSON `{ message, code?, statusCode }`, with `message` always a string (the web's request
 * helper shows it). The database or Redis out of reach for a moment (refused, or past its command timeout) is a 503
 * with Retry-After (a retry with the same Idempotency-Key never does a change twice).
 * Unknown errors are logged and answered 500 without details. An address outside the API that nothing answers is
 * the web app's to answer, when the server serves it (`WebApp`: a page, its not-found screen, or a plain 404).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(private readonly webApp: WebApp | null) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    const answer = errorAnswer(exception);
    if (answer.statusCode === 404 && this.webApp?.answerUnknown(request, reply)) return;
    sendError(reply, answer);
  }
}

function isClientError(e: unknown): e is Error & { statusCode: number; code?: string } {
  const statusCode = e instanceof Error ? (e as { statusCode?: unknown }).statusCode : undefined;
  return typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
}

function clientMessage(e: Error & { code?: string }) {
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError) return 'Request body is not valid JSON';
  if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'Request body is empty';
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'Request body is too large';
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Unsupported content type; send JSON';
  return e.message;
}
