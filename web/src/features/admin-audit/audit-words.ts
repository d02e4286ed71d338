import { describeAuditEntry, type AuditDescriptionFormat, type AuditEntry } from '@seatlink/contracts';
import { formatDateTime, localFormat } from '../../lib/format';

/** Times in an entry's words as the dashboard shows them: the browser's time zone, 24-hour clock. */
const DASHBOARD_TIMES: AuditDescriptionFormat = {
  time: (iso) => localFormat.time(new Date(iso)),
  dateTime: (iso) => formatDateTime(iso),
};

/**
 * What an audit entry says beyond its event type, in one line (contracts' describeAuditEntry), as shown here; in the
 * table (`inTable`) without the ticket and link, which have columns of their own.
 */
export function auditWords(entry: AuditEntry, { inTable = false } = {}): string {
  return describeAuditEntry(entry, inTable ? { ...DASHBOARD_TIMES, subject: false } : DASHBOARD_TIMES);
}
