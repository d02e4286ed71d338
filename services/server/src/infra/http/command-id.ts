import { randomUUID } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { v5 as uuidv5 } from 'uuid';

const SEED = Symbol('seatlink.command-seed');
const NAMESPACE = 'c1d0a4e2-8b3f-4f6a-9d7e-2a5b6c7d8e9f';

/** Ties the commands of this request to its Idempotency-Key (set by the idempotency interceptor). */
export function seedCommandIds(request: object, seed: string): void {
  (request as Record<symbol, string>)[SEED] = seed;
}

/**
 * The id of the command a request runs: derived from its Idempotency-Key when it has one, so a retry appends nothing
 * new (event ids derive from the command id) even when its first answer was lost; random otherwise.
 */
export function commandIdOf(request: object): string {
  const seed = (request as Record<symbol, string | undefined>)[SEED];
  return seed ? uuidv5(seed, NAMESPACE) : randomUUID();
}

/** The command id of this request (see `commandIdOf`). */
export const CommandId = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  commandIdOf(ctx.switchToHttp().getRequest<object>()),
);
