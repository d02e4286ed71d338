import { AggregateCommand } from '../../shared/event-sourcing/aggregate-command.js';
import type { JoinWaitlist } from './waitlist.decider.js';
import type { WaitlistJoined } from './waitlist.events.js';

/** A command on one address's waitlist stream (Register Interest: a visitor without an invite code asks to be told). */
export class WaitlistCommandMessage extends AggregateCommand<JoinWaitlist, { joined: boolean }, WaitlistJoined> {}
