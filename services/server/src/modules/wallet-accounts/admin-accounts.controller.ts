import { Controller, Get, Inject } from '@nestjs/common';
import {
  type AdminAccountsResponse,
  adminAccountsResponseSchema,
  type AdminTicketsResponse,
  adminTicketsResponseSchema,
  type DuplicateGroupsResponse,
  duplicateGroupsResponseSchema,
} from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { AdminOnly } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { duplicateGroups, listAdminAccounts, listAllTickets } from './read-models/accounts.queries.js';

/** Every account, every ticket and the duplicate groups (admins; docs/reference.md "API calls"). */
@Controller('v1/admin')
@AdminOnly()
export class AdminAccountsController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('accounts')
  @Answers(adminAccountsResponseSchema)
  async accounts(): Promise<AdminAccountsResponse> {
    return { accounts: await listAdminAccounts(this.database.db) };
  }

  @Get('tickets')
  @Answers(adminTicketsResponseSchema)
  async tickets(): Promise<AdminTicketsResponse> {
    return { tickets: await listAllTickets(this.database.db, this.config.DASHBOARD_URL) };
  }

  @Get('tickets/duplicates')
  @Answers(duplicateGroupsResponseSchema)
  async duplicates(): Promise<DuplicateGroupsResponse> {
    return { duplicate_groups: await duplicateGroups(this.database.db) };
  }
}
