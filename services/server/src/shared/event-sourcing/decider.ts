/** A domain event as deciders see it: a type and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/**
 * A decider (Jérémie Chassaing's pattern, as in Emmett): pure functions only.
 * Time, ids, the caller and the bulk flag arrive with the command; nothing here reads a clock.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /**
   * Optional: the state after many events at once, exactly `events.reduce(evolve, state)`. A decider whose state holds
   * a large collection gives it so that a fold copies the collection once instead of once per event (a stream of
   * thousands of events would otherwise cost a quadratic time).
   */
  evolveAll?: (state: State, events: readonly Event[]) => State;
  /** The events the command produces, or a thrown DomainError. */
  decide: (command: Command, state: State) => Event[];
}

/** A command refused by a business rule; the HTTP layer turns it into a 4xx with this message. */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 410 | 422 | 423 | 424 | 429 = 422,
    /** More of the answer's body (a bulk request's per-item results); never secrets. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve' | 'evolveAll'>,
  events: readonly Event[],
): State {
  return decider.evolveAll
    ? decider.evolveAll(decider.initialState(), events)
    : events.reduce(decider.evolve, decider.initialState());
}
