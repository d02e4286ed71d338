import { Controller, Get, Inject } from '@nestjs/common';
import {
  type AdminAccountsResponse,
  adminAccountsResponseSchema,
  type AdminTicketsResponse,
  adminTicketsResponseSchema,
  type DuplicateGroupsResponse,
  duplicateGroupsResponseSchema,
  type User,
} from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ReadReplicas, readersOf } from '../../infra/db/read-replicas.js';
import { AdminOnly, CurrentUser } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { duplicateGroups, listAdminAccounts, listAllTickets } from './read-models/accounts.queries.js';

/** Every account, every ticket and the duplicate groups (admins; docs/reference.md "API calls"). */
@Controller('v1/admin')
@AdminOnly()
export class AdminAccountsController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reads: ReadReplicas,
  ) {}

  @Get('accounts')
  @Answers(adminAccountsResponseSchema)
  async accounts(@CurrentUser() admin: User): Promise<AdminAccountsResponse> {
    return { accounts: await this.reads.read(readersOf(admin), (db) => listAdminAccounts(db)) };
  }

  @Get('tickets')
  @Answers(adminTicketsResponseSchema)
  async tickets(@CurrentUser() admin: User): Promise<AdminTicketsResponse> {
    return {
      tickets: await this.reads.read(readersOf(admin), (db) => listAllTickets(db, this.config.DASHBOARD_URL)),
    };
  }

  @Get('tickets/duplicates')
  @Answers(duplicateGroupsResponseSchema)
  async duplicates(): Promise<DuplicateGroupsResponse> {
    return { duplicate_groups: await duplicateGroups(this.database.db) };
  }
}
