// The admin module's public face: what other modules may use. Import it from here, never from its files.
export { AdminModule } from './admin.module.js';
