import { aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import { PassCommandMessage, WalletAccountCommandMessage, WalletLinkCommandMessage } from './wallet-account.command.js';
import { passDecider, walletAccountDecider, walletLinkDecider } from './wallet-account.decider.js';
import { passStream, walletAccountStream, walletLinkStream } from './wallet-account.events.js';

/** A linked account's commands. */
export const WalletAccountCommandHandler = aggregateCommandHandler(WalletAccountCommandMessage, {
  decider: walletAccountDecider,
  streamOf: (command) => walletAccountStream(command.data.accountId),
  // A sync's outcome may meet the owner's deletion or a new sign-in on the stream.
  maxAttempts: 20,
});

/** The wallet links' commands. */
export const WalletLinkCommandHandler = aggregateCommandHandler(WalletLinkCommandMessage, {
  decider: walletLinkDecider,
  streamOf: (command) => walletLinkStream(command.data.userId, command.data.email),
});

/** The passes' commands. */
export const PassCommandHandler = aggregateCommandHandler(PassCommandMessage, {
  decider: passDecider,
  streamOf: (command) => passStream(command.data.dedupeKey),
  // The syncs of every account holding one pass claim it on its stream at once.
  maxAttempts: 50,
});
