// The notifications module's public face: what other modules may use. Import it from here, never from its files.
export { NotificationsModule } from './notifications.module.js';
export { UNSUBSCRIBE_PATH } from './unsubscribe.controller.js';
