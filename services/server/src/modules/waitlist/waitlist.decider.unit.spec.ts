import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { waitlistDecider } from './waitlist.decider.js';

describe('waitlist decider', () => {
  const spec = deciderSpec(waitlistDecider);
  const data = { email: 'kim@example.com', firstName: 'Kim', lastName: 'Park' };
  const now = '2026-07-01T08:00:00.000Z';

  it('adds an address once', () => {
    spec
      .given([])
      .when({ type: 'JoinWaitlist', data: { ...data, now } })
      .then([{ type: 'WaitlistJoined', data: { ...data, at: now } }]);
  });

  it('accepts a repeat quietly, adding nothing', () => {
    spec
      .given([{ type: 'WaitlistJoined', data: { ...data, at: now } }])
      .when({ type: 'JoinWaitlist', data: { ...data, now } })
      .then([]);
  });
});
