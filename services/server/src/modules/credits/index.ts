// The credits module's public face: what other modules may use. Import it from here, never from its files.
export type { CreditsEvent } from './credits.events.js';
export { balanceAfter, CreditsCommandMessage } from './credits.command.js';
export { type CreditsCommand, InsufficientCreditsError } from './credits.decider.js';
export { creditBalances } from './credits.schema.js';
export { creditsAt } from './read-models/credits-at.js';
export { CreditsModule } from './credits.module.js';
