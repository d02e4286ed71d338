import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';

export const DEPRECATED_PREFIXES = 'seatlink:deprecated-prefixes';

/**
 * The controller's paths under these of its prefixes are old names kept for one version: they work as before, and
 * the API document marks them deprecated beside the current path.
 */
export const DeprecatedPrefixes = (...prefixes: string[]) => SetMetadata(DEPRECATED_PREFIXES, prefixes);

export const ANSWERS = 'seatlink:answers';

/**
 * What the call answers when it succeeds: a named schema of the contracts (`named()`), which the API document gives as
 * the answer's body and the integration suite holds every answer to. The handler's return type is the schema's type.
 */
export const Answers = (answer: z.ZodType) => SetMetadata(ANSWERS, answer);
