import { waitlistEntries } from '../../../../infra/db/schema.js';
import type { Projection } from '../../../../infra/projections/projection.js';
import type { WaitlistJoined } from '../../waitlist.events.js';

/** `waitlist_entries`: who asked to hear when registrations open. */
export const waitlistProjection: Projection = {
  name: 'waitlist',
  tables: ['waitlist_entries'],
  handles: ['WaitlistJoined'],
  async apply(recorded, { tx }) {
    const { data } = recorded as unknown as WaitlistJoined;
    await tx
      .insert(waitlistEntries)
      .values({ email: data.email, firstName: data.firstName, lastName: data.lastName, joinedAt: new Date(data.at) })
      .onConflictDoNothing();
  },
};
