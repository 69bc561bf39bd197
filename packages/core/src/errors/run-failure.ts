import { runFailedMessage } from './messages';
import { reportableError } from './reportable-error';
import { thrownMessage } from './thrown-message';
import { ToolsmithError } from './toolsmith-error';

/**
 * The error a run ends on when `thrown` escapes its agent's turn (a model callback's throw, say):
 * `thrown` itself when it can be reported as it is ({@link reportableError}), else `INTERNAL_ERROR`
 * saying, by its text, that the run failed. The run's error event and the agent's span both say it.
 */
export function runFailure(thrown: unknown): ToolsmithError {
  return reportableError(thrown) ?? new ToolsmithError('INTERNAL_ERROR', runFailedMessage(thrownMessage(thrown)), { cause: thrown });
}
