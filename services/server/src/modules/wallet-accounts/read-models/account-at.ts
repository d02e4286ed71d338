import type { EventStore } from '../../../infra/event-store/event-store.port.js';
import { fold } from '../../../shared/event-sourcing/decider.js';
import { walletAccountDecider } from '../wallet-account.decider.js';
import type { PassDetails, WalletAccountEvent } from '../wallet-account.events.js';

/** A wallet account as it stood at a moment: linked and not deleted, with the tickets it held then. */
export interface AccountAt {
  accountId: string;
  email: string;
  linkedAt: Date;
  tickets: Array<{ ticketId: string; pass: PassDetails }>;
}

/** The account of a wallet-account stream as it stood at a moment; null when it was not linked then. */
export async function accountAt(store: EventStore, streamId: string, at: Date): Promise<AccountAt | null> {
  const events = (await store.readStream(streamId)).events.filter((e) => e.createdAt <= at);
  if (events.length === 0) return null;
  const state = fold(
    walletAccountDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as WalletAccountEvent),
  );
  if (!state.exists || state.deleted || state.accountId === null) return null;
  return {
    accountId: state.accountId,
    email: state.email,
    linkedAt: events[0]!.createdAt,
    tickets: [...state.tickets.values()].map(({ ticketId, pass }) => ({ ticketId, pass })),
  };
}
