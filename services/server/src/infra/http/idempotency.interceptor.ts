import { createHash } from 'node:crypto';
import {
  BadRequestException,
  type CallHandler,
  ConflictException,
  type ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UnprocessableEntityException,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { ProcessLiveness } from '../db/process-liveness.js';
import { seedCommandIds } from './command-id.js';
import { overriddenStatus, overrideStatus } from './response-status.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long an answer is kept for retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A request still running after this long is taken to have died (or hung); a retry may run it again. A process that
 * dies gives its requests up at once (ProcessLiveness), not after this.
 */
const LEASE_MS = 60_000;
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export const NO_IDEMPOTENCY_KEY = 'seatlink:no-idempotency';

/**
 * The route ignores Idempotency-Key: its answer is not all it does (sign-in sets a session cookie, which a replayed
 * answer would not), and running it again is what a retry wants.
 */
export const NoIdempotencyKey = () => SetMetadata(NO_IDEMPOTENCY_KEY, true);

/** The request's Idempotency-Key, checked: undefined when none was sent; 400 when it is not 1–255 visible ASCII. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !VALID_KEY.test(header)) {
    throw new BadRequestException({
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
      code: 'INVALID_IDEMPOTENCY_KEY',
    });
  }
  return header;
}

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

interface KeyRow {
  fingerprint: string;
  state: 'running' | 'done';
  status_code: number | null;
  body: unknown;
}

/**
 * `Idempotency-Key` on every state-changing call: the first request with a key runs and its successful answer is kept
 * for 24 hours; a retry with the same key (same caller, method and path) gets that answer again and changes nothing.
 * The same key with another body is refused (422); a retry while the first is still running gets 409. A failed
 * request keeps nothing, so a retry runs again — and, as its commands' ids derive from the key, appends nothing that
 * the failed one already did.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly claimSql: string;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly reflector: Reflector,
    private readonly liveness: ProcessLiveness,
  ) {
    // Taken over: a finished answer past its 24 hours, or a request still running whose lease ran out or whose process
    // is gone (killed, crashed: its retry must not wait out the lease).
    this.claimSql = `insert into idempotency_keys (scope_hash, fingerprint, state, created_at, locked_until, expires_at, owner)
       values ($1, $2, 'running', now(), now() + ($3 || ' milliseconds')::interval,
               now() + ($4 || ' milliseconds')::interval, $5)
       on conflict (scope_hash) do update
         set fingerprint = excluded.fingerprint, state = 'running', status_code = null, body = null,
             created_at = excluded.created_at, locked_until = excluded.locked_until, expires_at = excluded.expires_at,
             owner = excluded.owner
         where idempotency_keys.expires_at < now()
            or (idempotency_keys.state = 'running'
                and (idempotency_keys.locked_until < now()
                     or (idempotency_keys.owner is not null and not ${liveness.aliveSql('idempotency_keys.owner')})))
       returning scope_hash`;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: { id: string } }>();
    if (!CHANGING.has(request.method) || request.headers[IDEMPOTENCY_HEADER] === undefined) return next.handle();
    if (this.reflector.get<boolean>(NO_IDEMPOTENCY_KEY, context.getHandler())) return next.handle();
    const header = idempotencyKeyOf(request);
    const scope = request.user?.id ? `user:${request.user.id}` : `ip:${request.ip}`;
    const scopeHash = sha256([scope, request.method, request.url, header]);
    const fingerprint = sha256(request.body ?? null);
    const defaultStatus =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      (request.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);

    return from(this.claim(scopeHash, fingerprint)).pipe(
      mergeMap((earlier) => {
        if (earlier) return of(this.replay(earlier, fingerprint, request, http.getResponse<FastifyReply>()));
        seedCommandIds(request, scopeHash);
        return next.handle().pipe(
          mergeMap((body: unknown) => from(this.remember(scopeHash, overriddenStatus(request) ?? defaultStatus, body))),
          catchError((err: unknown) =>
            from(this.forget(scopeHash)).pipe(mergeMap(() => throwError(() => err as Error))),
          ),
        );
      }),
    );
  }

  /** Takes the key for this request; answers the earlier request's row when someone has it already. */
  private async claim(scopeHash: string, fingerprint: string): Promise<KeyRow | null> {
    const claimed = await this.database.query<{ scope_hash: string }>(this.claimSql, [
      scopeHash,
      fingerprint,
      String(LEASE_MS),
      String(IDEMPOTENCY_TTL_MS),
      this.liveness.owner,
    ]);
    if (claimed.length > 0) return null;
    const [row] = await this.database.query<KeyRow>(
      'select fingerprint, state, status_code, body from idempotency_keys where scope_hash = $1',
      [scopeHash],
    );
    // Gone in between (it failed and was released): let this request run.
    if (!row) return this.claim(scopeHash, fingerprint);
    return row;
  }

  private replay(earlier: KeyRow, fingerprint: string, request: FastifyRequest, reply: FastifyReply): unknown {
    if (earlier.fingerprint !== fingerprint) {
      throw new UnprocessableEntityException({
        message: 'This Idempotency-Key was already used for a different request',
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
    }
    if (earlier.state === 'running') {
      throw new ConflictException({
        message: 'A request with this Idempotency-Key is still in progress',
        code: 'IDEMPOTENCY_IN_PROGRESS',
      });
    }
    overrideStatus(request, earlier.status_code ?? HttpStatus.OK);
    void reply.header('Idempotency-Replayed', 'true');
    return earlier.body;
  }

  private async remember(scopeHash: string, status: number, body: unknown): Promise<unknown> {
    await this.database.query(
      `update idempotency_keys set state = 'done', status_code = $2, body = $3::jsonb where scope_hash = $1`,
      [scopeHash, status, JSON.stringify(body ?? null)],
    );
    return body;
  }

  private async forget(scopeHash: string): Promise<void> {
    await this.database
      .query(`delete from idempotency_keys where scope_hash = $1 and state = 'running'`, [scopeHash])
      .catch(() => undefined);
  }
}
