/**
 * `zod` as the browser build has it (vite.config.ts points `zod` here): zod itself, told before any schema is made
 * never to compile parsers with `new Function`. The dashboard's Content-Security-Policy allows no eval, and zod's probe
 * for it, though caught, is reported as a policy violation on every page that loads a schema. Parsing works the same.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
