import type { EventStore } from '../../infra/event-store/event-store.port.js';
import { AggregateCommand, AggregateCommandBatch } from '../../shared/event-sourcing/aggregate-command.js';
import { decideOn } from '../../shared/event-sourcing/aggregate-handler.js';
import {
  passDecider,
  type WalletAccountCommand,
  walletAccountDecider,
  type WalletAccountState,
  walletLinkDecider,
} from './wallet-account.decider.js';
import {
  type PassEvent,
  type WalletAccountEvent,
  walletAccountStream,
  type WalletLinkEvent,
} from './wallet-account.events.js';

type WalletLinkCommand = Parameters<typeof walletLinkDecider.decide>[0];
type WalletLinkState = ReturnType<typeof walletLinkDecider.initialState>;
type PassCommand = Parameters<typeof passDecider.decide>[0];
type PassState = ReturnType<typeof passDecider.initialState>;

/** Any command on one linked account's stream (link, sign in again, delete, a sync's outcome), with who asked. */
export class WalletAccountCommandMessage extends AggregateCommand<
  WalletAccountCommand,
  WalletAccountState,
  WalletAccountEvent
> {}

/** Claiming or giving back one user's link to one external account (the link flow, a deletion). */
export class WalletLinkCommandMessage extends AggregateCommand<WalletLinkCommand, WalletLinkState, WalletLinkEvent> {}

/** Claiming or giving back a pass for a ticket: the pass's stream decides who holds it first. */
export class PassCommandMessage extends AggregateCommand<PassCommand, PassState, PassEvent> {}

/** Many passes' claims and releases at once (a sync's tickets), each decided on its pass's stream as one would be. */
export class PassCommandBatch extends AggregateCommandBatch<PassCommand, PassState, PassEvent> {}

/**
 * Refuses a command now as the account's stream would, appending nothing: a check before a call to the wallet
 * provider that the command waits on, so that another user's account, a deleted one or another e-mail address never
 * gets as far as the provider. The command itself decides again when it is sent.
 */
export async function refuseEarly(store: EventStore, command: WalletAccountCommand, commandId: string) {
  await decideOn(store, walletAccountDecider, walletAccountStream(command.data.accountId), command, commandId);
}
