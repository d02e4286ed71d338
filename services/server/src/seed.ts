import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { count } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { DATABASE } from './infra/db/database.module.js';
import type { Database } from './infra/db/database.js';
import { users } from './infra/db/schema.js';
import { ProjectionWaiter } from './infra/projections/projection-waiter.js';
import { SetCreditsCommand } from './modules/credits/set-credits.handler.js';
import { findCredentialsByEmail } from './modules/identity/read-models/users/users.queries.js';
import { RegisterUserCommand } from './modules/identity/register-user.handler.js';

const SEED_NAMESPACE = '6f0f3c56-9a53-4c1e-8a4e-0d1c8f7d2b11';

/** The demo logins the README lists. */
export const demoUsers = [
  {
    email: 'admin@seatlink.test',
    password: 'Admin123!',
    firstName: 'Ada',
    lastName: 'Admin',
    isAdmin: true,
    credits: 0,
  },
  {
    email: 'user@seatlink.test',
    password: 'User1234!',
    firstName: 'Uma',
    lastName: 'User',
    isAdmin: false,
    credits: 50,
  },
] as const;

export async function isDatabaseEmpty(app: INestApplicationContext): Promise<boolean> {
  const database = app.get<Database>(DATABASE);
  const [row] = await database.db.select({ n: count() }).from(users);
  return Number(row?.n ?? 0) === 0;
}

/** Creates the demo admin and user (e-mails verified). Running it again changes nothing. */
export async function seed(app: INestApplicationContext): Promise<string[]> {
  const bus = app.get(CommandBus);
  const waiter = app.get(ProjectionWaiter);
  const database = app.get<Database>(DATABASE);
  const created: string[] = [];
  for (const demo of demoUsers) {
    if (await findCredentialsByEmail(database.db, demo.email)) continue;
    const userId = uuidv5(demo.email, SEED_NAMESPACE);
    const registered = await bus.execute(
      new RegisterUserCommand({ ...demo, userId, emailVerified: true, actorId: 'seed' }),
    );
    let position = registered.position;
    if (demo.credits > 0) {
      const set = await bus.execute(
        new SetCreditsCommand({ userId, credits: demo.credits, actorId: 'seed', commandId: `seed-credits:${userId}` }),
      );
      position = set.position ?? position;
    }
    await waiter.waitFor(position, 30_000);
    created.push(demo.email);
  }
  return created;
}
