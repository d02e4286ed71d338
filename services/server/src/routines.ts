import { auditRoutines } from './modules/audit/index.js';
import { distributionRoutines } from './modules/distribution/index.js';
import { walletAccountsRoutines } from './modules/wallet-accounts/index.js';
import type { Routine } from './infra/db/database.js';

/**
 * The modules' functions in the database, in the order `Database.migrate()` applies them after infra's own (the event
 * store's, then the subscriptions'). Each is kept as source by the module that calls it, as its tables are.
 */
export const MODULE_ROUTINES: readonly Routine[] = [
  ...distributionRoutines,
  ...walletAccountsRoutines,
  ...auditRoutines,
];
