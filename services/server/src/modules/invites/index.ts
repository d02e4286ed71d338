// The invites module's public face: what other modules may use. Import it from here, never from its files.
export { InviteCommandMessage } from './invite.command.js';
export { type InviteCodeUsed, inviteStream } from './invite.events.js';
export { InvitesModule } from './invites.module.js';
