import { Controller, Get, Header, Inject, Param, Query, Res } from '@nestjs/common';
import {
  AUDIT_EVENT_TYPES,
  AUDIT_KINDS,
  describeAuditEntry,
  type AuditEntry,
  type AuditQuery,
  auditQuerySchema,
  type AuditsResponse,
  auditsResponseSchema,
  MAX_AUDIT_EXPORT_ROWS,
  userIdParamSchema,
  type User,
} from '@seatlink/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ReadReplicas, readersOf } from '../../infra/db/read-replicas.js';
import { csvCell } from '../../infra/http/csv-cell.js';
import { sendStreamed } from '../../infra/http/streamed-answer.js';
import { AdminOnly, CurrentUser } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { auditBatches, listAudits } from './read-models/audit.queries.js';

/**
 * The table's columns (docs/reference.md "User Audit Log screen") with the ids, then what the entry says in words
 * (Kind, Summary) at the end.
 */
const CSV_COLUMNS = [
  'Event Time',
  'Status',
  'Event Type',
  'Ticket ID',
  'Distribution ID',
  'IP Address',
  'Bulk Action',
  'Details',
  'Kind',
  'Summary',
];

/** Times in a CSV's summary as in its first column: ISO 8601, UTC. */
const CSV_TIMES = { time: (iso: string) => iso, dateTime: (iso: string) => iso };

function csvRow(entry: AuditEntry): string[] {
  const { status, ticket_id, distribution_id, ...details } = entry.event_data;
  return [
    entry.created_at,
    status,
    AUDIT_EVENT_TYPES[entry.event_type],
    csvCell(ticket_id),
    csvCell(distribution_id),
    csvCell(entry.metadata.ip_address),
    entry.metadata.bulk_action ? 'yes' : 'no',
    csvCell(Object.keys(details).length > 0 ? JSON.stringify(details) : null),
    AUDIT_KINDS[entry.kind],
    csvCell(describeAuditEntry(entry, CSV_TIMES) || null),
  ];
}

/**
 * A user's audit log for admins (docs/reference.md "API calls"), and the same filtered view as CSV (ids and words
 * both).
 */
@Controller('v1/admin/users')
@AdminOnly()
export class AdminAuditsController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly reads: ReadReplicas,
  ) {}

  @Get(':id/audits')
  @Answers(auditsResponseSchema)
  async audits(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @Query({ schema: auditQuerySchema }) query: AuditQuery,
    @CurrentUser() admin: User,
  ): Promise<AuditsResponse> {
    return { audits: await this.reads.read(readersOf(admin), (db) => listAudits(db, userId, query)) };
  }

  /** Every entry of the filtered view (not just a page), newest first, streamed; at most MAX_AUDIT_EXPORT_ROWS. */
  @Get(':id/audits.csv')
  @Header('content-type', 'text/csv; charset=utf-8')
  @Header('cache-control', 'no-store')
  async exportCsv(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @Query({ schema: auditQuerySchema }) query: AuditQuery,
    @Res() reply: FastifyReply,
  ) {
    const batches = auditBatches(this.database.db, userId, query, 2000, MAX_AUDIT_EXPORT_ROWS);
    const rows = (async function* () {
      for await (const batch of batches) for (const entry of batch) yield csvRow(entry);
    })();
    void reply.header('content-disposition', `attachment; filename="audit-${userId}.csv"`);
    return sendStreamed(reply, 'Audit CSV export', rows, stringify({ header: true, columns: CSV_COLUMNS, bom: true }));
  }
}
