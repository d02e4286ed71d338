import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RegisterUserCommand } from '../modules/identity/register-user.command.js';
import { subscriptionsCaughtUp } from './test-app.js';

/** A verified, signed-up user (no invite, no e-mail round trip), visible in the read models when this resolves. */
export async function createVerifiedUser(
  app: INestApplicationContext,
  user: { email?: string; password?: string; isAdmin?: boolean } = {},
): Promise<{ id: string; email: string; password: string }> {
  const email = user.email ?? `user-${randomUUID().slice(0, 8)}@example.com`;
  const password = user.password ?? 'Passw0rd!';
  const id = randomUUID();
  await app.get(CommandBus).execute(
    new RegisterUserCommand({
      userId: id,
      email,
      password,
      firstName: 'Test',
      lastName: 'User',
      isAdmin: user.isAdmin ?? false,
      emailVerified: true,
      actorId: 'test',
    }),
  );
  await subscriptionsCaughtUp(app);
  return { id, email, password };
}
