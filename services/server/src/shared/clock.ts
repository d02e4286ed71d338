/**
 * The time that decides money and access — a link's expiry, a session's age, a step-up's freshness, an invite's or a
 * token's validity, the time an event says it happened — is one clock for every process: the database's
 * (infra/db/database-clock.ts registers it when the database opens). A process whose own clock is wrong by a day then
 * judges an expiry as every other process does, and cannot charge for a link that is dead on arrival. Timers, backoffs
 * and log lines keep the process's own clock.
 */
export interface TimeSource {
  now(): Date;
}

const processTime: TimeSource = { now: () => new Date() };
let source: TimeSource = processTime;

export const clock: TimeSource = { now: () => source.now() };

/** Makes `time` the clock of this process (null: its own again). */
export function useTimeSource(time: TimeSource | null): void {
  source = time ?? processTime;
}
