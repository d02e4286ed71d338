/*
 * Shape 2 — a flow over several streams (a process manager). One class in `<module>/<name>.flow.ts` is the
 * @CommandHandler of the flow's entry command and sends a Shape 1 message for each stream it touches; work outside
 * the event store (a provider's sign-in, a password's hash) comes first. When a step fails it gives back at once what
 * it took. It writes down what it is doing before its first effect whose half-done state would need undoing, and one
 * compensation job in its module finishes or undoes a flow found unfinished. Where that first effect is a claim on one
 * stream, the claim's event is the record, written with it: `flowWatch` hands each one to the job, which looks once
 * the flow has had FLOW_CHECK_AFTER_MS to finish and gives back a claim still held (`claimStillHeld`) by a flow that
 * did not. A flow that must pay between deciding and appending uses `decideOn` and `appendDecision`.
 */
import { Inject, Injectable, type Type } from '@nestjs/common';
import type { QueueName } from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import type { EventStore, RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { EventSubscription, type Subscription } from '../../infra/subscriptions/subscription.js';

/** Tries of a compensation job (the database may be away when it looks). */
export const COMPENSATION_JOB_OPTIONS = { attempts: 20, backoff: { type: 'exponential' as const, delayMs: 1000 } };

/**
 * Whether the claim appended as event `claimId` still holds: it is on its stream and no later event there gives it
 * back. A compensation job gives back only such a claim, never one that a later attempt of the flow took again.
 */
export async function claimStillHeld(
  store: EventStore,
  streamId: string,
  claimId: string,
  givesBack: (event: RecordedEvent) => boolean,
): Promise<boolean> {
  const { events } = await store.readStream(streamId);
  const at = events.findIndex((e) => e.id === claimId);
  return at >= 0 && !events.slice(at + 1).some(givesBack);
}

export interface FlowWatchOptions {
  /** The reaction's name. */
  name: string;
  /** The events of the flows' first claims. */
  handles: readonly string[];
  /** The flows' compensation job. */
  job: { queue: QueueName; name: string };
  /** What the job needs to look at the flow of one claim. */
  data: (event: RecordedEvent) => unknown;
}

/**
 * The reaction that hands each first claim of a flow to the flow's compensation job, due FLOW_CHECK_AFTER_MS later
 * (`export class XWatch extends flowWatch({...}) {}`). The job is added in the reaction's transaction: if adding
 * fails, the event is handled again.
 */
export function flowWatch(options: FlowWatchOptions): Type<Subscription> {
  @Injectable()
  @EventSubscription()
  class FlowWatch implements Subscription {
    readonly name = options.name;
    readonly kind = 'reaction' as const;
    readonly handles = options.handles;

    constructor(
      @Inject(JOB_QUEUE) private readonly queue: JobQueue,
      @Inject(APP_CONFIG) private readonly config: AppConfig,
    ) {}

    async apply(events: readonly RecordedEvent[]) {
      for (const event of events) {
        await this.queue.add(options.job.queue, options.job.name, options.data(event), {
          ...COMPENSATION_JOB_OPTIONS,
          jobId: `${options.job.name}-${event.id}`,
          delayMs: this.config.FLOW_CHECK_AFTER_MS,
        });
      }
    }
  }
  return FlowWatch;
}
