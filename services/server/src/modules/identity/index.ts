// The identity module's public face: what other modules may use. Import it from here, never from its files.
export type { UserEvent } from './user.events.js';
export { IdentityModule } from './identity.module.js';
export { accessAt } from './read-models/access-at.js';
export { PasswordHasher } from './password-hasher.js';
export { findUserById, listUsers } from './read-models/users/users.queries.js';
export { SessionPolicy } from './session-policy.js';
export { UserAccounts } from './user-accounts.service.js';
export { UserCommandMessage } from './user.command.js';
