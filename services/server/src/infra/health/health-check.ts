import { providerMark } from '../../shared/provider-mark.js';

/**
 * A feature's own health figure (wallet syncs overdue, …): `/health` is degraded while it names a problem, and
 * `/v1/admin/health` lists it. A check answers within the health check's bound or counts as failed.
 */
export interface HealthCheck {
  /** Names the check where it fails. */
  readonly name: string;
  /** What is wrong now, in a few words each; none when all is well. */
  problems(): Promise<string[]>;
}

const healthChecks = providerMark<HealthCheck>('seatlink.health-check');

/** Class decorator: the class is a HealthCheck. Its module lists it among its providers. */
export const ProvidesHealthCheck = healthChecks.markClass;
export const findHealthChecks = healthChecks.found;
