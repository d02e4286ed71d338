/*
 * Shape 1 — a command on one stream. Each aggregate (a decider and its stream) has one message class, extending
 * AggregateCommand: the decider's own command (`{ type, data }`) and a CommandMeta. Its one handler is made by
 * `aggregateCommandHandler`: it reads the stream, decides and appends at the revision it read (again on a conflict),
 * and answers a HandleResult. Every caller — controller, job, reaction, flow, another module — sends the message on
 * the CommandBus; nothing else appends to a decided stream. Work the decider must not do (a call to the wallet
 * provider or the payment gateway, hashing a password) is done by the caller before it sends; a reaction passes its
 * transaction's store, so what it appends commits with its checkpoint. Several streams: a flow (flow.ts).
 * A reaction that issues one command per event it reads sends them as one batch (`AggregateCommandBatch`, handled by
 * `aggregateBatchHandler`): the same commands on the same streams, decided the same way, in two round trips for the
 * batch instead of two per command.
 */
import { randomUUID } from 'node:crypto';
import { Inject, type Type } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { KeyedMutex } from '../keyed-mutex.js';
import { handleCommand, handleCommands, type HandleResult, type KnownStream } from './aggregate-handler.js';
import type { Decider, DomainEvent } from './decider.js';

/** Who sent a command and as what: copied onto every event it appends. */
export interface CommandMeta {
  /** The user who asked (absent for a visitor or the system). */
  actorId?: string;
  ip?: string;
  bulk?: boolean;
  /**
   * The command's id: event ids derive from it, so the same id sent twice (a retried job, a request repeated with its
   * Idempotency-Key) appends nothing the second time and answers what the first time decided. A fresh id when absent.
   */
  commandId?: string;
}

/**
 * A command on one aggregate's stream, as sent on the CommandBus: the decider's own command (`{ type, data }`) and who
 * sent it. Each aggregate has one such message class and one handler (`aggregateCommandHandler`); controllers, jobs,
 * reactions, flows and other modules all send it the same way.
 */
export abstract class AggregateCommand<C, State, Event extends DomainEvent> extends Command<
  HandleResult<State, Event>
> {
  constructor(
    readonly command: C,
    readonly meta: CommandMeta = {},
    /**
     * The store to decide on and append to instead of the application's: a reaction's, inside the transaction that
     * moves its checkpoint, so what the command appends commits with it.
     */
    readonly store?: EventStore,
    /**
     * The stream as the sender has just read it (and the state folded from it): the command is first decided on it
     * instead of reading the stream again; its append expects that revision, so a stream that moved since is read
     * again. Only a sender that read the stream itself, on the same store, passes it.
     */
    readonly known?: KnownStream<State>,
  ) {
    super();
  }
}

export interface AggregateDefinition<C, State, Event extends DomainEvent> {
  decider: Decider<State, C, Event>;
  /** The stream the command is decided on. */
  streamOf: (command: C) => string;
  /**
   * Commands on one stream take turns in this process (a hot stream: a user's credits under a burst of requests),
   * instead of all reading the same revision and retrying against each other. Across processes the expected revision
   * still decides.
   */
  oneAtATime?: boolean;
  /** Attempts when another append beats this one (default 10). */
  maxAttempts?: number;
}

/** The one handler of an aggregate's command message: decides on the stream and appends (`handleCommand`). */
export function aggregateCommandHandler<C, State, Event extends DomainEvent>(
  message: Type<AggregateCommand<C, State, Event>>,
  aggregate: AggregateDefinition<C, State, Event>,
): Type<ICommandHandler<AggregateCommand<C, State, Event>>> {
  @CommandHandler(message)
  class Handler implements ICommandHandler<AggregateCommand<C, State, Event>> {
    private readonly turns = new KeyedMutex();

    constructor(@Inject(EVENT_STORE) readonly store: EventStore) {}

    execute({ command, meta, store, known }: AggregateCommand<C, State, Event>): Promise<HandleResult<State, Event>> {
      const stream = aggregate.streamOf(command);
      const run = () =>
        handleCommand(store ?? this.store, aggregate.decider, stream, command, {
          metadata: { actorId: meta.actorId, ip: meta.ip, ...(meta.bulk ? { bulk: true } : {}) },
          commandId: meta.commandId ?? randomUUID(),
          maxAttempts: aggregate.maxAttempts,
          known,
        });
      return aggregate.oneAtATime ? this.turns.run(stream, run) : run();
    }
  }
  Object.defineProperty(Handler, 'name', { value: `${message.name}Handler` });
  return Handler;
}

/**
 * Many commands of one aggregate as one message, each on its own stream (or several on one, in order): decided as the
 * aggregate's handler decides each, appended together (`handleCommands`). Answers each command's result, in order.
 */
export abstract class AggregateCommandBatch<C, State, Event extends DomainEvent> extends Command<
  HandleResult<State, Event>[]
> {
  constructor(
    readonly commands: ReadonlyArray<{ command: C; meta: CommandMeta }>,
    /** As for one command: a reaction's store, inside the transaction that moves its checkpoint. */
    readonly store?: EventStore,
  ) {
    super();
  }
}

/** The handler of an aggregate's batch message: the aggregate's commands decided on their streams together. */
export function aggregateBatchHandler<C, State, Event extends DomainEvent>(
  message: Type<AggregateCommandBatch<C, State, Event>>,
  aggregate: AggregateDefinition<C, State, Event>,
): Type<ICommandHandler<AggregateCommandBatch<C, State, Event>>> {
  @CommandHandler(message)
  class Handler implements ICommandHandler<AggregateCommandBatch<C, State, Event>> {
    constructor(@Inject(EVENT_STORE) readonly store: EventStore) {}

    async execute({ commands, store }: AggregateCommandBatch<C, State, Event>): Promise<HandleResult<State, Event>[]> {
      if (commands.length === 0) return [];
      return handleCommands(
        store ?? this.store,
        aggregate.decider,
        commands.map(({ command, meta }) => ({
          streamId: aggregate.streamOf(command),
          command,
          commandId: meta.commandId ?? randomUUID(),
          metadata: { actorId: meta.actorId, ip: meta.ip, ...(meta.bulk ? { bulk: true } : {}) },
        })),
        { maxAttempts: aggregate.maxAttempts },
      );
    }
  }
  Object.defineProperty(Handler, 'name', { value: `${message.name}Handler` });
  return Handler;
}
