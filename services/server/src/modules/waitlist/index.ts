// The waitlist module's public face: what other modules may use. Import it from here, never from its files.
export { WaitlistModule } from './waitlist.module.js';
