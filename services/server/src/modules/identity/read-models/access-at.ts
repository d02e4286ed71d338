import type { EventStore } from '../../../infra/event-store/event-store.port.js';
import { fold } from '../../../shared/event-sourcing/decider.js';
import { userDecider } from '../user.decider.js';
import { type UserEvent, userStream } from '../user.events.js';

/** How a user could get in at a moment: banned or not, and their second factors (passkeys by name). */
export interface AccessAt {
  banned: boolean;
  authenticator: boolean;
  passkeys: string[];
}

/** The user's standing as it stood at a moment, folded from their stream up to it with the decider that made it. */
export async function accessAt(store: EventStore, userId: string, at: Date): Promise<AccessAt> {
  const events = (await store.readStream(userStream(userId))).events.filter((e) => e.createdAt <= at);
  const state = fold(
    userDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
  );
  return { banned: state.banned, authenticator: state.totpEnabled, passkeys: state.passkeys.map((p) => p.name) };
}
