import { ToolsmithError } from './toolsmith-error';

/**
 * A state update applied in the append (`ctx.state.compareAndSet` or `ctx.state.increment`) found
 * another value in the store than it needs: another session or process wrote the key since the tool
 * read it. Nothing of the event was stored. The runner answers the tool's call with this error
 * instead of its result, and stores the rest of the step (see docs/sessions.md, "Shared state").
 */
export class StateConflictError extends ToolsmithError {
  constructor(
    /** The state key whose stored value did not match. */
    readonly key: string,
    /** What the update needed: the compare-and-set's expected value (`null`: not set), or `'a number'` for an increment. */
    readonly expected: unknown,
    /** The value the store held (`null`: not set). */
    readonly actual: unknown,
  ) {
    super(
      'STATE_CONFLICT',
      `State key "${key}" was changed by another writer: expected ${describe(expected)}, the store holds ${describe(actual)}. ` +
        'Nothing of this update was stored; read the key again and decide anew.',
      { details: { key, expected, actual } },
    );
  }
}

function describe(value: unknown): string {
  if (value === null) return 'no value';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
