import { ToolsmithError } from './toolsmith-error';

/**
 * The user denied a call that needed confirmation; the tool did not run. A rejection with a message
 * (`decision: 'reject', message`) quotes it in the error's message, which the model reads.
 */
export class ToolCallRejectedError extends ToolsmithError {
  constructor(toolName: string, userMessage?: string) {
    super(
      'TOOL_CALL_REJECTED',
      userMessage === undefined || userMessage.trim() === ''
        ? `The user rejected the call to tool "${toolName}". Do not retry it unless the user asks.`
        : `The user rejected the call to tool "${toolName}" and said: ${JSON.stringify(userMessage)}. Do not retry it unless the user asks.`,
    );
  }
}
