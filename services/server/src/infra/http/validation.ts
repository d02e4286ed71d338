import {
  BadRequestException,
  StandardSchemaValidationPipe,
  type StandardSchemaValidationPipeOptions,
} from '@nestjs/common';

type Issues = Parameters<NonNullable<StandardSchemaValidationPipeOptions['exceptionFactory']>>[0];

/** A request that failed its schema: a 400 with one readable message (`field: what is wrong`, joined by `; `). */
export function invalidRequest(issues: Issues): BadRequestException {
  return new BadRequestException(
    issues
      .map((issue) => {
        const field = (issue.path ?? [])
          .map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String(p.key) : String(p)))
          .join('.');
        return field ? `${field}: ${issue.message}` : issue.message;
      })
      .join('; '),
  );
}

/** Validates bodies, queries and params against their zod schemas; a failure is a 400 with one readable message. */
export function createValidationPipe() {
  return new StandardSchemaValidationPipe({ exceptionFactory: invalidRequest });
}
