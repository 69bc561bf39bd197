import { ToolsmithError } from '@toolsmith/core';

/**
 * A durable run recovered after a crash found its session moved on: while it was cut off, another run of
 * the session (a newer message) stored events after the run's last one. The recovered run ends here, on
 * this error, instead of writing its turn after the newer message's (see docs/durable.md).
 */
export class RunSupersededError extends ToolsmithError<'RUN_SUPERSEDED'> {
  constructor(
    /** The session's id. */
    readonly sessionId: string,
    /** The invocation ids of the runs that stored events after this run's last one, in the order they stored them. */
    readonly supersededBy: readonly string[],
  ) {
    super(
      'RUN_SUPERSEDED',
      `Session "${sessionId}" moved on while this run was cut off: a newer message's run (invocation ${supersededBy.join(', ')}) stored events after this run's last one. The recovered run ends here; it does not write its turn after the newer message's.`,
    );
  }
}
