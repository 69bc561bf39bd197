import { ToolsmithError } from './toolsmith-error';

/** The run's `signal` was aborted; the session keeps only complete events. */
export class RunAbortedError extends ToolsmithError {
  constructor(reason?: unknown) {
    super('RUN_ABORTED', 'The run was aborted.', reason === undefined ? {} : { cause: reason });
  }
}
