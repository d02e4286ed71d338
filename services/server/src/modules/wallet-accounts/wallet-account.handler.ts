import { aggregateBatchHandler, aggregateCommandHandler } from '../../shared/event-sourcing/aggregate-command.js';
import {
  PassCommandBatch,
  PassCommandMessage,
  WalletAccountCommandMessage,
  WalletLinkCommandMessage,
} from './wallet-account.command.js';
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

const pass = {
  decider: passDecider,
  streamOf: (command: Parameters<typeof passDecider.decide>[0]) => passStream(command.data.dedupeKey),
  // The syncs of every account holding one pass claim it on its stream at once.
  maxAttempts: 50,
};

/** The passes' commands, one at a time. */
export const PassCommandHandler = aggregateCommandHandler(PassCommandMessage, pass);

/** The passes' commands, many at once. */
export const PassCommandBatchHandler = aggregateBatchHandler(PassCommandBatch, pass);
