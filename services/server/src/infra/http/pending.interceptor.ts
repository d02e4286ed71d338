import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { map } from 'rxjs';
import { overrideStatus } from './response-status.js';

/**
 * A command's answer with `pending: true` (the change is made, but the read models do not show it yet) leaves as 202
 * Accepted: never a 404 for something created, never a 200 claiming a state that is not visible.
 */
@Injectable()
export class PendingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // Reads have no pending answers.
    if (request.method === 'GET') return next.handle();
    return next.handle().pipe(
      map((body: unknown) => {
        if (body && typeof body === 'object' && (body as { pending?: unknown }).pending === true) {
          overrideStatus(request, 202);
        }
        return body;
      }),
    );
  }
}
