import type { Event } from '../events/event';

/**
 * Events handed out a batch at a time: `next()` resolves to the next batch (never empty), or to
 * `undefined` once there are no more. The consumer stores each complete event of a batch before it asks
 * for the next batch, so the producer sees them in the session. `close()` ends the producer early (the
 * consumer stopped reading, or failed): it closes whatever the producer still reads from (a streaming
 * model call, another agent's run), as `return()` does for a generator.
 */
export interface EventSteps {
  next(): Promise<Event[] | undefined>;
  /**
   * {@link EventSteps.next} with the batch itself (or `undefined`) instead of a promise of it when no step before it
   * waits, and a throw instead of a rejection: the consumer's step for a batch at hand makes no promise and waits for
   * none. Optional: without it the consumer calls `next()`.
   */
  nextNow?(): Event[] | undefined | Promise<Event[] | undefined>;
  /**
   * {@link EventSteps.nextNow} for a consumer that would go on with `promise.then(arrived, failed)`: a batch at
   * hand as `nextNow` gives it, else the promise of what `arrived` (or `failed`, for a step that fails) makes of
   * the batch. A producer may call them where the batch is made (a model call's own async function), so the
   * consumer's step makes no promise of its own and waits no extra tick. A throw is a throw, as for `nextNow`.
   * Optional.
   */
  nextTo?<R>(arrived: (batch: Event[] | undefined) => R | Promise<R>, failed: (thrown: unknown) => Promise<R>): Event[] | undefined | Promise<R>;
  close(): Promise<void>;
  /** True once `next()` would resolve to `undefined`: the consumer may stop without asking (one step and its await fewer). */
  readonly finished?: boolean;
}

/** The events of any async generator (an agent's `runAsync`) as {@link EventSteps}: one event per batch. */
export function generatorSteps(events: AsyncGenerator<Event, void, undefined>): EventSteps {
  return {
    next: () => events.next().then(oneEvent),
    close: async () => {
      await events.return();
    },
  };
}

function oneEvent(result: IteratorResult<Event, void>): Event[] | undefined {
  return result.done ? undefined : [result.value];
}

/** A thin async generator over `steps`, each batch's events one by one; closing it (`return()`, `break`) closes `steps`. */
export async function* eventsOf(steps: EventSteps): AsyncGenerator<Event, void, undefined> {
  let finished = false;
  try {
    for (let batch = await steps.next(); batch; batch = steps.finished ? undefined : await steps.next()) {
      for (const event of batch) yield event;
    }
    finished = true;
  } finally {
    if (!finished) await steps.close();
  }
}
