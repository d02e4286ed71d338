import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { linkState, MAX_LINK_EXPORT_ROWS, type User } from '@seatlink/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { CurrentUser, ApiKeyScoped } from '../../infra/http/auth.decorators.js';
import { csvCell } from '../../infra/http/csv-cell.js';
import { sendStreamed } from '../../infra/http/streamed-answer.js';
import { linkUrl } from './link-url.js';
import { type ExportedLink, userLinkBatches } from './read-models/links.queries.js';
import { clock } from '../../shared/clock.js';

const CSV_COLUMNS = [
  'Link',
  'Ticket',
  'Label',
  'Recipient',
  'Recipient Email',
  'State',
  'Clicks',
  'Max Clicks',
  'Expiry',
  'Created',
  'Last Click',
  'Claimed By',
  'Claimed On',
  'Recalled',
  'Distribution ID',
  'Ticket ID',
];

const iso = (at: Date | null) => (at ? at.toISOString() : '');

/**
 * The signed-in user's links as CSV (GET /v1/links/export.csv): every link made, recalled ones too, newest first, with
 * its label, whom it is for (its recipient's name and e-mail), state (as the dashboard says it: active, expired, limit_reached, recalled), clicks, limit (empty:
 * unlimited), expiry, last click and who made it (the name they gave, their device). Streamed; at most MAX_LINK_EXPORT_ROWS rows.
 */
@Controller('v1/links')
export class LinkExportController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiKeyScoped('links:read')
  @Get('export.csv')
  @Header('content-type', 'text/csv; charset=utf-8')
  @Header('cache-control', 'no-store')
  async exportCsv(@CurrentUser() user: User, @Res() reply: FastifyReply) {
    const batches = userLinkBatches(this.database.db, user.id, 2000, MAX_LINK_EXPORT_ROWS);
    const now = clock.now();
    const dashboardUrl = this.config.DASHBOARD_URL;
    const row = (link: ExportedLink) => [
      linkUrl(dashboardUrl, link.code),
      csvCell(link.title),
      csvCell(link.label),
      csvCell(link.recipientName),
      csvCell(link.recipientEmail),
      linkState(
        {
          recalled: link.recalledAt !== null,
          ticketHeld: link.title !== null,
          expiresAt: link.expiresAt,
          maxClicks: link.maxClicks,
          clicks: link.clicks,
        },
        now,
      ),
      String(link.clicks),
      link.maxClicks && link.maxClicks > 0 ? String(link.maxClicks) : '',
      iso(link.expiresAt),
      iso(link.createdAt),
      iso(link.lastClickAt),
      csvCell(link.lastClaimName),
      csvCell(link.lastClaimDevice),
      iso(link.recalledAt),
      link.distributionId,
      link.ticketId,
    ];
    const rows = (async function* () {
      for await (const batch of batches) for (const link of batch) yield row(link);
    })();
    void reply.header('content-disposition', 'attachment; filename="seatlink-links.csv"');
    return sendStreamed(reply, 'Link CSV export', rows, stringify({ header: true, columns: CSV_COLUMNS, bom: true }));
  }
}
