import { isAsyncGeneratorIterator } from '../model/generator-iterator';

/**
 * How many more parts a model's generator may yield while the runner finishes closing it
 * ({@link finishClosing}); one that yields more is left where it is.
 */
export const MAX_CLOSING_PARTS = 100;

/**
 * Finishes closing a model's async generator (`iterator`, read with its `next`) after the `return()` that
 * closed it answered `{ done: false }`: an async generator whose `finally` yields answers so, and is suspended
 * at that `yield`, its cleanup cut short (`for await ... break` leaves it there). Each `next()` lets the
 * cleanup go on where it stopped, what it yields dropped (the response is complete), until the generator
 * ends; after {@link MAX_CLOSING_PARTS} more parts, or once the run is aborted, it is left where it is.
 * What it throws ends the call as a failed close does.
 */
export async function finishClosing<T>(iterator: AsyncIterator<T>, next: AsyncIterator<T>['next'], run: ClosingRun): Promise<void> {
  // Up to MAX_CLOSING_PARTS parts, and the next() that finds the generator done; none once the run is aborted.
  // An abort leaves it where it stopped; the response it completed stands (as when its finally does not yield).
  for (let given = 0; given <= MAX_CLOSING_PARTS && !run.aborted; given++) if ((await next.call(iterator)).done !== false) return;
}

/** The run a model's parts are closed in: once it is aborted, a closing generator is driven no further. */
export interface ClosingRun {
  readonly aborted: boolean;
}


/**
 * `parts` as `for await` reads them (see {@link closingFully}'s use in model-call.ts), except that a close
 * answered `{ done: false }` is finished ({@link finishClosing}). Parts with no async iterator (a sync
 * iterable, which `for await` also takes) are returned as they are.
 */
export function closingFully<T>(parts: AsyncIterable<T>, run: ClosingRun): AsyncIterable<T> {
  if (typeof parts !== 'object' || parts === null) return parts;
  const open = parts[Symbol.asyncIterator];
  if (open === undefined || open === null) return parts;
  return {
    [Symbol.asyncIterator]: () => {
      const iterator: AsyncIterator<T> = open.call(parts);
      if ((typeof iterator !== 'object' && typeof iterator !== 'function') || iterator === null) throw new TypeError('The model\'s parts: [Symbol.asyncIterator]() returned no object.');
      // Read once, as for await reads it; return() is read when the parts are closed, as for await reads it.
      const nextOf = iterator.next;
      return {
        next: () => nextOf.call(iterator),
        return: async () => {
          const close = iterator.return;
          if (close === undefined || close === null) return { done: true, value: undefined };
          const closed: unknown = await close.call(iterator);
          if ((typeof closed !== 'object' && typeof closed !== 'function') || closed === null) throw new TypeError('The model\'s parts: return() answered no object.');
          // Only an async generator's own close is finished: an iterator of the model's own that answers
          // { done: false } is closed as for await closes it (its next() after return() means nothing known).
          if ((closed as IteratorResult<unknown>).done === false && isAsyncGeneratorIterator(iterator, nextOf, close)) await finishClosing(iterator, nextOf, run);
          return { done: true, value: undefined };
        },
      };
    },
  };
}
