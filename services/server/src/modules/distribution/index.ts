// The distribution module's public face: what other modules may use. Import it from here, never from its files.
export {
  type DistributionEvent,
  type LinkClicked,
  type LinkOpened,
  type TicketDistributed,
  ticketDistributionStream,
} from './distribution.events.js';
export { linkClickLimits } from './link-counters.js';
export { linkUrl } from './link-url.js';
export { linkAt } from './read-models/link-at.js';
export {
  claimantOf,
  LINK_VERSIONED_TABLES,
  type LiveLink,
  linkLabels,
  linkRecipients,
  liveLinksByTicket,
  ticketsWithLinkChanges,
} from './read-models/links.queries.js';
export { distributionRoutines } from './distribution.routines.js';
export { DistributionModule } from './distribution.module.js';
export { RECIPIENT_UNSUBSCRIBE_PATH } from './recipient-mail-tokens.js';
