import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type Account,
  accountIdParamSchema,
  type AccountResponse,
  accountResponseSchema,
  type AccountsResponse,
  accountsResponseSchema,
  type AccountTicketsResponse,
  accountTicketsResponseSchema,
  type BatchLinkRequest,
  batchLinkRequestSchema,
  type BatchLinkResponse,
  batchLinkResponseSchema,
  type LinkAccountRequest,
  linkAccountRequestSchema,
  type MessageResponse,
  messageResponseSchema,
  type TicketsQuery,
  ticketsQuerySchema,
  ticketsResponseSchema,
  type TicketsResponse,
  type User,
} from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ReadReplicas, readersOf } from '../../infra/db/read-replicas.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { CommandId } from '../../infra/http/command-id.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { ClientIp, CurrentUser, ApiKeyScoped } from '../../infra/http/auth.decorators.js';
import { type AccountCommandResult, LinkWalletAccountCommand } from './link-account.command.js';
import { accountTickets, findAccount, listAccounts } from './read-models/accounts.queries.js';
import { decodeCursor, ticketsAnswer } from './read-models/tickets.queries.js';
import { refuseEarly, WalletAccountCommandMessage } from './wallet-account.command.js';
import type { WalletAccountCommand } from './wallet-account.decider.js';
import type { WalletAccountLinked } from './wallet-account.events.js';
import { WalletGateway } from './wallet-gateway.service.js';
import { clock } from '../../shared/clock.js';
import { Answers, DeprecatedPrefixes } from '../../infra/http/openapi.decorators.js';

/** The account as the command left it, when the read model does not show it yet. */
function fromEvents(result: AccountCommandResult): Account | null {
  const linked = result.events.find((e): e is WalletAccountLinked => e.type === 'WalletAccountLinked');
  if (!linked) return null;
  const d = linked.data;
  return {
    id: d.accountId,
    user_id: d.userId,
    first_name: d.firstName,
    last_name: d.lastName,
    name: d.displayName,
    email: d.email,
    last_synced_at: null,
    createdAt: d.at,
    updatedAt: d.at,
    in_error_state: false,
    last_error: null,
    sync_error: null,
    skipped_passes: 0,
    ticket_count: 0,
    distributed_count: 0,
    syncing: false,
  };
}

/**
 * The signed-in user's wallet accounts (docs/reference.md "API calls"): list, link one or a batch, re-authenticate,
 * delete. An account of another user answers 404 on every call, as a missing one does.
 */
@Controller('v1')
export class AccountsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly wallet: WalletGateway,
    private readonly reads: ReadReplicas,
  ) {}

  @Get('accounts')
  @Answers(accountsResponseSchema)
  async list(@CurrentUser() user: User): Promise<AccountsResponse> {
    return { accounts: await listAccounts(this.database.db, user.id) };
  }

  @Post('accounts')
  @Throttled('wallet-sign-in')
  @Answers(accountResponseSchema)
  async link(
    @Body({ schema: linkAccountRequestSchema }) body: LinkAccountRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<AccountResponse> {
    const result = await this.commandBus.execute(
      new LinkWalletAccountCommand({ userId: user.id, email: body.email, password: body.password, commandId, ip }),
    );
    return this.answer(result, user.id);
  }

  /** Links each account on its own: the good ones are linked, each refusal says why. */
  @Post('accounts/batch')
  @HttpCode(200)
  @Throttled('wallet-sign-in-batch')
  @Answers(batchLinkResponseSchema)
  async linkBatch(
    @Body({ schema: batchLinkRequestSchema }) body: BatchLinkRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<BatchLinkResponse> {
    const results: BatchLinkResponse['results'] = [];
    for (const [i, entry] of body.accounts.entries()) {
      try {
        const result = await this.commandBus.execute(
          new LinkWalletAccountCommand({
            userId: user.id,
            email: entry.email,
            password: entry.password,
            commandId: `${commandId}:${i}`,
            ip,
          }),
        );
        await this.waiter.pending(result);
        const account = (await findAccount(this.database.db, result.accountId, user.id)) ?? fromEvents(result);
        results.push({ email: entry.email, ...(account ? { account } : {}) });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        results.push({ email: entry.email, error: { message: err.message, code: err.code } });
      }
    }
    const linked = results.filter((r) => r.account).length;
    return { results, linked, failed: results.length - linked };
  }

  @Post('accounts/:id/reauth')
  @HttpCode(200)
  @Throttled('wallet-reauth')
  @Answers(accountResponseSchema)
  async reauth(
    @Param('id', { schema: accountIdParamSchema }) accountId: string,
    @Body({ schema: linkAccountRequestSchema }) body: LinkAccountRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<AccountResponse> {
    const email = body.email.trim().toLowerCase();
    const reauthenticate: WalletAccountCommand = {
      type: 'Reauthenticate',
      data: { accountId, userId: user.id, email, now: clock.now().toISOString() },
    };
    // The account must be the caller's, live, and this e-mail's before the wallet is asked anything.
    await refuseEarly(this.store, reauthenticate, commandId);
    await this.wallet.keepToken(accountId, await this.wallet.signIn(email, body.password));
    const result = await this.commandBus.execute(
      new WalletAccountCommandMessage(reauthenticate, { actorId: user.id, ip, commandId }),
    );
    return this.answer({ accountId, ...result }, user.id, { in_error_state: false, last_error: null });
  }

  @Delete('accounts/:id')
  @Answers(messageResponseSchema)
  async remove(
    @Param('id', { schema: accountIdParamSchema }) accountId: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    const result = await this.commandBus.execute(
      new WalletAccountCommandMessage(
        { type: 'DeleteAccount', data: { accountId, userId: user.id, now: clock.now().toISOString() } },
        { actorId: user.id, ip, commandId },
      ),
    );
    const pending = await this.waiter.pending(result);
    return { message: 'Account successfully deleted', ...(pending ? { pending } : {}) };
  }

  /**
   * The user's tickets (services/contracts tickets.ts): all of them, a page (`limit`, `after`), or only what changed
   * since a version an earlier answer gave (`since`); every answer says the version it stands at.
   */
  @ApiKeyScoped('tickets:read')
  @Get('tickets')
  @Answers(ticketsResponseSchema)
  async tickets(
    @Query({ schema: ticketsQuerySchema }) query: TicketsQuery,
    @CurrentUser() user: User,
  ): Promise<TicketsResponse> {
    const after = query.after === undefined ? undefined : decodeCursor(query.after);
    if (after === null) throw new BadRequestException('after: after must be the next_cursor of the page before');
    return this.reads.read(readersOf(user), (db) =>
      ticketsAnswer(db, user.id, { limit: query.limit, after, since: query.since }, this.config.DASHBOARD_URL),
    );
  }

  /** The account after a command: the read model's row once it shows the change, else the write side's view. */
  private async answer(result: AccountCommandResult, userId: string, patch: Partial<Account> = {}) {
    const pending = await this.waiter.pending(result);
    const account = (await findAccount(this.database.db, result.accountId, userId)) ?? fromEvents(result);
    if (!account) throw new NotFoundException('Account not found');
    return { ...account, ...(pending ? patch : {}), ...(pending ? { pending } : {}) };
  }
}

/**
 * GET /v1/accounts/{id}/tickets: the tickets of one account. Its first path had no v1 (`/accounts/{id}/tickets`): kept
 * as a deprecated alias for one version.
 */
@Controller(['v1/accounts', 'accounts'])
@DeprecatedPrefixes('accounts')
export class AccountTicketsController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  @Get(':id/tickets')
  @Answers(accountTicketsResponseSchema)
  async tickets(
    @Param('id', { schema: accountIdParamSchema }) accountId: string,
    @CurrentUser() user: User,
  ): Promise<AccountTicketsResponse> {
    const account = await findAccount(this.database.db, accountId, user.id);
    if (!account) throw new NotFoundException('Account not found');
    return { account, tickets: await accountTickets(this.database.db, accountId) };
  }
}
