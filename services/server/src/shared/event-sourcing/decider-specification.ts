import { expect } from 'vitest';
import { type Decider, type DomainEvent, fold } from './decider.js';

/**
 * given(events).when(command).then(events | error) — the way deciders are specified.
 * Used only by *.unit.spec.ts files.
 */
export function deciderSpec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(history: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, fold(decider, history));
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenThrows(match: { code?: string; message?: string | RegExp }) {
              let caught: unknown;
              try {
                run();
              } catch (err) {
                caught = err;
              }
              expect(caught, 'the command should have been refused').toBeInstanceOf(Error);
              if (match.code) expect((caught as { code?: string }).code).toBe(match.code);
              if (match.message) expect((caught as Error).message).toMatch(match.message);
            },
          };
        },
      };
    },
  };
}
