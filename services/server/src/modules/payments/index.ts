// The payments module's public face: what other modules may use. Import it from here, never from its files.
export { PaymentsModule } from './payments.module.js';
