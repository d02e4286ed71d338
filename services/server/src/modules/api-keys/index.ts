// The api-keys module's public face: what other modules may use. Import it from here, never from its files.
export type { ApiKeyEvent } from './api-keys.events.js';
export { ApiKeysModule } from './api-keys.module.js';
export { apiKeysAt } from './read-models/api-keys-at.js';
