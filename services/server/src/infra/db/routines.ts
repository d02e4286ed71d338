import { distributionRoutines } from '../../modules/distribution/distribution.routines.js';
import { eventStoreRoutines } from '../event-store/event-store.routines.js';
import { subscriptionRoutines } from '../subscriptions/subscription.routines.js';
import type { Routine } from './database.js';

/**
 * Every function the product runs in the database, in the order `Database.migrate()` applies them: the event store's,
 * then the subscriptions', then each module's (a function's body may call only those before it). Each is kept by the
 * code that calls it, as the drizzle schema is gathered from each module's tables.
 */
export const ROUTINES: readonly Routine[] = [...eventStoreRoutines, ...subscriptionRoutines, ...distributionRoutines];
