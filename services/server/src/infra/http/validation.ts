import { BadRequestException, StandardSchemaValidationPipe } from '@nestjs/common';

/** Validates bodies, queries and params against their zod schemas; a failure is a 400 with one readable message. */
export function createValidationPipe() {
  return new StandardSchemaValidationPipe({
    exceptionFactory: (issues) =>
      new BadRequestException(
        issues
          .map((issue) => {
            const field = (issue.path ?? [])
              .map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String(p.key) : String(p)))
              .join('.');
            return field ? `${field}: ${issue.message}` : issue.message;
          })
          .join('; '),
      ),
  });
}
