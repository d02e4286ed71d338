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
