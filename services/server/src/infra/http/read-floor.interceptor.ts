import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { catchError, from, mergeMap } from 'rxjs';
import { ReadReplicas } from '../db/read-replicas.js';
import type { AuthenticatedRequest } from './auth.decorators.js';

/** The methods that read only. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With read replicas (DATABASE_READ_URL): after a signed-in caller's change, answered or refused, their floor is raised
 * to where the primary is, before the answer leaves — so their next read, on whichever process, is served by a
 * replica only once it shows that change (infra/db/read-floors.ts). Without replicas it does nothing.
 */
@Injectable()
export class ReadFloorInterceptor implements NestInterceptor {
  constructor(private readonly replicas: ReadReplicas) {}

  intercept(context: ExecutionContext, next: CallHandler) {
    if (!this.replicas.enabled || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { method: string }>();
    if (READS.has(request.method)) return next.handle();
    const raise = () => {
      const userId = request.user?.id;
      return userId ? this.replicas.raiseToPrimary([userId]) : Promise.resolve();
    };
    return next.handle().pipe(
      mergeMap((body: unknown) => from(raise().then(() => body))),
      catchError((err: unknown) =>
        from(
          raise().then(() => {
            throw err;
          }),
        ),
      ),
    );
  }
}
