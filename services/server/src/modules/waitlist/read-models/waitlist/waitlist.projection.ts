import { waitlistEntries } from '../../waitlist.schema.js';
import { rowProjection } from '../../../../infra/subscriptions/row-projection.js';
import type { WaitlistJoined } from '../../waitlist.events.js';

/** `waitlist_entries`: who asked to hear when registrations open. */
export const waitlistProjection = rowProjection<typeof waitlistEntries, WaitlistJoined>({
  name: 'waitlist',
  table: waitlistEntries,
  key: 'email',
  handles: ['WaitlistJoined'],
  keyOf: (event) => event.data.email,
  evolve: (row, { data }) =>
    row ?? { email: data.email, firstName: data.firstName, lastName: data.lastName, joinedAt: new Date(data.at) },
});
