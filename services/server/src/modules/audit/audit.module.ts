import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { AdminAuditsController } from './admin-audits.controller.js';
import { auditLogProjection } from './read-models/audit-log.projection.js';

/**
 * The audit log: everything that moved money, access or a link of a user, built from the events of the modules that
 * record them (read through their index.ts), and read by admins (GET /v1/admin/users/{id}/audits, and as CSV). It owns
 * `audit_entries` and `audit_names`.
 */
@Module({
  controllers: [AdminAuditsController],
  providers: [provideSubscription(auditLogProjection)],
})
export class AuditModule {}
