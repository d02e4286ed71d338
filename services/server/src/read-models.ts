import type { Projection } from './infra/projections/projection.js';
import { balanceProjection } from './modules/credits/read-models/balances/balance.projection.js';
import { inviteCodesProjection } from './modules/invites/read-models/invite-codes/invite-codes.projection.js';
import { waitlistProjection } from './modules/waitlist/read-models/waitlist/waitlist.projection.js';
import { usersProjection } from './modules/identity/read-models/users/users.projection.js';

/** Every read model the projector builds (and `npm run replay` rebuilds). */
export const readModels: readonly Projection[] = [
  usersProjection,
  balanceProjection,
  inviteCodesProjection,
  waitlistProjection,
];
