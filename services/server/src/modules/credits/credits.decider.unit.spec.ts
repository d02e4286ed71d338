import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { creditsDecider } from './credits.decider.js';
import type { CreditsSet } from './credits.events.js';

const now = '2026-03-01T12:00:00.000Z';
const set = (credits: number, previousBalance: number): CreditsSet => ({
  type: 'CreditsSet',
  data: { userId: 'u1', credits, previousBalance, setBy: 'admin1', at: now },
});

describe('credits decider', () => {
  const spec = deciderSpec(creditsDecider);
  const setCredits = (credits: number) =>
    ({ type: 'SetCredits', data: { userId: 'u1', credits, setBy: 'admin1', now } }) as const;

  it('sets the credits of a user with no history, from a balance of 0', () => {
    spec
      .given([])
      .when(setCredits(120))
      .then([set(120, 0)]);
  });

  it('records the balance it replaced', () => {
    spec
      .given([set(120, 0), set(30, 120)])
      .when(setCredits(0))
      .then([set(0, 30)]);
  });

  it.each([-1, 2.5, Number.NaN, 1_000_000_001])('refuses %s credits', (credits) => {
    spec.given([]).when(setCredits(credits)).thenThrows({ code: 'INVALID_CREDITS' });
  });
});
