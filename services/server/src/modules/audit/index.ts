// The audit module's public face: what other modules may use. Import it from here, never from its files.
export { auditRoutines } from './audit.routines.js';
export { AuditModule } from './audit.module.js';
