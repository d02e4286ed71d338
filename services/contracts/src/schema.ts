import { z } from 'zod';

/**
 * Defines a schema: `schema(() => z.object(…))` is `z.object(…)`, made at once. The call is marked free of side
 * effects (`@__NO_SIDE_EFFECTS__`), so a bundler drops a schema no code of its bundle uses. The dashboard imports the
 * contracts for their constants, texts and types and parses nothing with zod; a bundler cannot know that `z.object()`
 * does nothing but make a schema, so without the mark every schema of every module the dashboard imports from was
 * made as its page loaded, and zod (25 KB compressed) came with them. Every schema the contracts define at the top of
 * a module goes through here; the server uses them as before.
 */
/* @__NO_SIDE_EFFECTS__ */
export function schema<T>(define: () => T): T {
  return define();
}

/**
 * The API's named schemas — what calls answer, and their parts — each under its id. The API document lists them as
 * its components (`#/components/schemas/<id>`), so a generated client has a type of each by that name. Made inside
 * `schema()` like every schema, so the dashboard's bundle has none of them.
 */
export const apiSchemas = schema(() => z.registry<{ id: string; description?: string }>());

/** A schema of the API with its name: `named('Ticket', z.object(…))` (inside `schema()`). */
export function named<T extends z.ZodType>(id: string, definition: T, description?: string): T {
  apiSchemas.add(definition, description === undefined ? { id } : { id, description });
  return definition;
}

/** A time an answer gives: ISO 8601 with its offset (`2026-12-07T03:45:00.000Z`). */
export const timestampSchema = schema(() => z.iso.datetime({ offset: true }));
