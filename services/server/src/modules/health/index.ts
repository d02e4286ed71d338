// The health module's public face: what other modules may use. Import it from here, never from its files.
export { HealthModule } from './health.module.js';
