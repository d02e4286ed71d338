import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_DISTRIBUTION_COST, type User } from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import { creditsAt } from '../credits/index.js';
import { findUserById } from './read-models/users/users.queries.js';
import { emailClaimDecider, type UserState, userDecider } from './user.decider.js';
import { emailClaimStream, type EmailClaimEvent, type UserEvent, userStream } from './user.events.js';

/**
 * Users as the write side knows them (their streams), for what must not depend on a read model that may lag: signing
 * in (password, ban, verification) and answering with a user the read model does not show yet.
 */
@Injectable()
export class UserAccounts {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  /** The user holding this e-mail address, from its claim and the user's own stream; null when none. */
  async byEmail(email: string): Promise<UserState | null> {
    const claim = await this.store.readStream(emailClaimStream(email.trim().toLowerCase()));
    const { claimedBy } = fold(
      emailClaimDecider,
      claim.events.map((e) => ({ type: e.type, data: e.data }) as EmailClaimEvent),
    );
    if (!claimedBy) return null;
    const state = await this.state(claimedBy);
    return state.exists ? state : null;
  }

  async state(userId: string): Promise<UserState> {
    const { events } = await this.store.readStream(userStream(userId));
    return fold(
      userDecider,
      events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
    );
  }

  /** The user as the read model shows it; from the streams when the read model does not have it yet. */
  async getUser(userId: string): Promise<User | null> {
    const fromReadModel = await findUserById(this.database.db, userId);
    if (fromReadModel) return fromReadModel;
    const state = await this.state(userId);
    if (!state.exists) return null;
    const { balance } = await creditsAt(this.store, userId);
    return { ...toUser(state), balance };
  }
}

/** A user's shape (docs/reference.md "User") from the write side (balance and distribution cost at their defaults). */
export function toUser(state: UserState): User {
  return {
    id: state.userId!,
    email: state.email,
    email_verified: state.emailVerified,
    is_admin: state.isAdmin,
    is_banned: state.banned,
    created_at: new Date(state.registeredAt!).toISOString(),
    last_logged_in_at: state.lastLoggedInAt ? new Date(state.lastLoggedInAt).toISOString() : null,
    balance: 0,
    distribution_cost: DEFAULT_DISTRIBUTION_COST,
    first_name: state.firstName,
    last_name: state.lastName,
  };
}
