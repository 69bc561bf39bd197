import { toolCallDeniedMessage } from './messages';
import { ToolsmithError } from './toolsmith-error';

/** The `confirmationPolicy` denied a call; the tool did not run and nobody was asked. The model reads the policy's reason. */
export class ToolCallDeniedError extends ToolsmithError {
  constructor(toolName: string, reason: string) {
    super('TOOL_CALL_DENIED', toolCallDeniedMessage(toolName, reason), {
      details: { toolName, reason },
    });
  }
}
