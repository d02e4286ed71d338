import { createHash, randomInt } from 'node:crypto';
import { AggregateCommand } from '../../shared/event-sourcing/aggregate-command.js';
import type { InviteCommand, InviteState } from './invite.decider.js';
import type { InviteEvent } from './invite.events.js';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * 10 characters from an alphabet without look-alikes (no 0/O, 1/I/L): about 50 bits. Random; or, for a request with an
 * Idempotency-Key, derived from its command id (an HMAC-free hash is fine: the command id is itself unguessable), so a
 * retry makes the same code.
 */
export function generateInviteCode(seed?: string): string {
  if (!seed) return Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  const bytes = createHash('sha256').update(`invite-code:${seed}`).digest();
  return Array.from({ length: 10 }, (_, i) => CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length]).join('');
}

/** Any command on one invite code's stream, with who asked and from where. */
export class InviteCommandMessage extends AggregateCommand<InviteCommand, InviteState, InviteEvent> {}
