import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { count } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { DATABASE } from './infra/db/database.module.js';
import type { Database } from './infra/db/database.js';
import { users } from './modules/identity/identity.schema.js';
import { DEMO_WALLETS } from '@seatlink/wallet-sim';
import { APP_CONFIG, type AppConfig } from './infra/config/config.js';
import { LinkWalletAccountCommand } from './modules/wallet-accounts/link-account.command.js';
import { listAccounts } from './modules/wallet-accounts/read-models/accounts.queries.js';
import { ReadModelWaiter } from './infra/subscriptions/read-model-waiter.js';
import { CreditsCommandMessage } from './modules/credits/credits.command.js';
import { findCredentialsByEmail } from './modules/identity/read-models/users/users.queries.js';
import { RegisterUserCommand } from './modules/identity/register-user.command.js';
import { findUserById, SessionPolicy } from './modules/identity/index.js';

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
  const waiter = app.get(ReadModelWaiter);
  const database = app.get<Database>(DATABASE);
  const created: string[] = [];
  for (const demo of demoUsers) {
    if (await findCredentialsByEmail(database.db, demo.email)) continue;
    const userId = uuidv5(demo.email, SEED_NAMESPACE);
    const registered = await bus.execute(
      new RegisterUserCommand({ ...demo, userId, emailVerified: true, actorId: 'seed' }),
    );
    await waiter.waitFor(registered.position, ['UserRegistered'], 30_000);
    if (demo.credits > 0) {
      const set = await bus.execute(
        new CreditsCommandMessage(
          {
            type: 'SetCredits',
            data: {
              userId,
              credits: demo.credits,
              setBy: 'seed',
              reason: 'Demo credits',
              now: new Date().toISOString(),
            },
          },
          { actorId: 'seed', commandId: `seed-credits:${userId}` },
        ),
      );
      await waiter.waitFor(set.position, ['CreditsSet'], 30_000);
    }
    created.push(demo.email);
  }
  return created;
}

/** The demo wallets the seeded user has linked (the embedded simulator's), so `npm start` shows tickets. */
export const demoWalletLogins = DEMO_WALLETS.slice(0, 2);

/**
 * Links the demo wallets to the demo user, once (nothing when the user has accounts, or SEED_DEMO_WALLETS=false).
 * Needs the wallet provider to answer: call it once the process listens (the simulator may be mounted in it).
 */
export async function seedDemoWallets(app: INestApplicationContext): Promise<string[]> {
  const config = app.get<AppConfig>(APP_CONFIG);
  if (!config.SEED_DEMO_WALLETS) return [];
  const database = app.get<Database>(DATABASE);
  const user = await findCredentialsByEmail(database.db, demoUsers[1].email);
  if (!user) return [];
  if ((await listAccounts(database.db, user.id)).length > 0) return [];
  const bus = app.get(CommandBus);
  const linked: string[] = [];
  for (const wallet of demoWalletLogins) {
    await bus.execute(
      new LinkWalletAccountCommand({
        userId: user.id,
        email: wallet.email,
        password: wallet.password,
        commandId: `seed-wallet:${wallet.email}`,
      }),
    );
    linked.push(wallet.email);
  }
  return linked;
}

/**
 * The simulator's demo wallets as the start log lists them: each with its password, and whether the demo user has it
 * linked or it is free to link (as the data says now, not as a first start left it).
 */
export async function demoWalletsNotice(app: INestApplicationContext): Promise<string> {
  const database = app.get<Database>(DATABASE);
  const user = await findCredentialsByEmail(database.db, demoUsers[1].email);
  const linked = new Set(user ? (await listAccounts(database.db, user.id)).map((a) => a.email.toLowerCase()) : []);
  return DEMO_WALLETS.map(
    (w) => `${w.email} / ${w.password} (${linked.has(w.email) ? `linked to ${demoUsers[1].email}` : 'free to link'})`,
  ).join(', ');
}

/**
 * What the start log says of the admin gate (ADMIN_MFA, README "Configuration"): that it is off, or that it is on and
 * whether the demo admin can use the admin pages yet — until they set up a second factor on Settings, every admin call
 * answers 403 MFA_ENROLMENT_REQUIRED. `ready` tells the caller whether anything is to be done.
 */
export async function adminGateNotice(
  app: INestApplicationContext,
  settingsUrl: string,
): Promise<{ ready: boolean; text: string }> {
  if (app.get<AppConfig>(APP_CONFIG).ADMIN_MFA === 'optional') {
    return {
      ready: true,
      text: 'Admin pages: ADMIN_MFA=optional is in force: admins use them without a second factor (for development only)',
    };
  }
  const admin = demoUsers[0];
  const user = await findUserById(app.get<Database>(DATABASE).db, uuidv5(admin.email, SEED_NAMESPACE));
  if (user && (await app.get(SessionPolicy).adminAllowed(user))) {
    return { ready: true, text: `Admin pages: ADMIN_MFA=required, and ${admin.email} has a second factor` };
  }
  return {
    ready: false,
    text:
      `Admin pages: ADMIN_MFA=required: ${admin.email} must set up a second factor (an authenticator app or a passkey) ` +
      `on Settings, ${settingsUrl}, before the admin pages work (until then admin calls answer 403 ` +
      'MFA_ENROLMENT_REQUIRED); ADMIN_MFA=optional turns the gate off for development',
  };
}
