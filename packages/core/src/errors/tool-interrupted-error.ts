import { toolInterruptedMessage } from './messages';
import { ToolsmithError } from './toolsmith-error';

/**
 * A tool call was cut off before it answered: the process running it died (or its run was abandoned)
 * after the model's call was stored and before its response was. The next run of the session reports
 * the call with this error instead of running it again, because the tool may have had its effect
 * already; the model (and the client) decide what to do, e.g. check and ask the user.
 */
export class ToolInterruptedError extends ToolsmithError {
  constructor(
    /** The tool whose call was cut off. */
    readonly toolName: string,
    /** The id of the interrupted call; its error response answers this id. */
    readonly functionCallId: string,
  ) {
    super('TOOL_INTERRUPTED', toolInterruptedMessage(toolName), { details: { toolName, functionCallId } });
  }
}
