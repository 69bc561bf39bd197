import { ToolsmithError } from './toolsmith-error';

/** The `confirmationPolicy` denied a call; the tool did not run and nobody was asked. The model reads the policy's reason. */
export class ToolCallDeniedError extends ToolsmithError {
  constructor(toolName: string, reason: string) {
    super('TOOL_CALL_DENIED', `The call to tool "${toolName}" was denied by policy: ${JSON.stringify(reason)}. Do not retry it unless the user asks.`, {
      details: { toolName, reason },
    });
  }
}
