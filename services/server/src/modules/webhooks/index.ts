// The webhooks module's public face: what other modules may use. Import it from here, never from its files.
export type { WebhookEvent } from './webhooks.events.js';
export { WebhooksModule } from './webhooks.module.js';
export { webhooksAt } from './read-models/webhooks-at.js';
