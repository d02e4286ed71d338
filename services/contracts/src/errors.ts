import { z } from 'zod';
import { named, schema } from './schema.js';

/**
 * Every refusal's body, whichever call answers it: `message` always (a sentence a person reads), `code` where the
 * refusal has a name, `statusCode`, and the details some refusals add. The API document's `Error` component.
 */
export const errorResponseSchema = schema(() =>
  named(
    'Error',
    z.looseObject({
      message: z.string().meta({ description: 'What went wrong, in words a person reads.' }),
      code: z
        .string()
        .optional()
        .meta({ description: "The refusal's name (e.g. `INSUFFICIENT_CREDITS`, `STEP_UP_REQUIRED`)." }),
      statusCode: z.number().int().meta({ description: 'The status of the answer.' }),
      error: z
        .string()
        .optional()
        .meta({ description: "The status's name, or the failure text where a call puts it there." }),
      retryAfterSeconds: z
        .number()
        .int()
        .optional()
        .meta({ description: 'Come back after this many seconds (also `Retry-After`).' }),
      method: z
        .enum(['totp', 'passkey', 'password'])
        .optional()
        .meta({ description: '`STEP_UP_REQUIRED`: how to confirm it is you (POST /v1/me/step-up).' }),
      passkey: z.boolean().optional().meta({ description: '`STEP_UP_REQUIRED`: a passkey confirms too.' }),
      balance: z
        .number()
        .int()
        .optional()
        .meta({ description: '`INSUFFICIENT_CREDITS`: the credits the account has.' }),
      failed: z
        .array(z.looseObject({}))
        .optional()
        .meta({ description: 'Refusals of a batch: each item with its id, `code` and `message`.' }),
    }),
    'A refusal: the message says why.',
  ),
);
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
