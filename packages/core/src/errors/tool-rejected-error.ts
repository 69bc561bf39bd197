import { ToolsmithError } from './toolsmith-error';

/** The user denied a call that needed confirmation; the tool did not run. */
export class ToolCallRejectedError extends ToolsmithError {
  constructor(toolName: string) {
    super('TOOL_CALL_REJECTED', `The user rejected the call to tool "${toolName}". Do not retry it unless the user asks.`);
  }
}
