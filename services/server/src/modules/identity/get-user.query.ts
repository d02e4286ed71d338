import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { User } from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { findUserById, listUsers } from './read-models/users/users.queries.js';

export class GetUserQuery extends Query<User | null> {
  constructor(readonly userId: string) {
    super();
  }
}

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery> {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  execute({ userId }: GetUserQuery) {
    return findUserById(this.database.db, userId);
  }
}

export class ListUsersQuery extends Query<Awaited<ReturnType<typeof listUsers>>> {
  constructor(
    readonly page: number,
    readonly limit: number,
    readonly now: Date = new Date(),
  ) {
    super();
  }
}

@QueryHandler(ListUsersQuery)
export class ListUsersHandler implements IQueryHandler<ListUsersQuery> {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  execute({ page, limit, now }: ListUsersQuery) {
    return listUsers(this.database.db, page, limit, now);
  }
}
