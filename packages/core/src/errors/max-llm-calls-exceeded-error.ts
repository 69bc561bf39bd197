import { ToolsmithError } from './toolsmith-error';

/** An invocation reached its agent's `maxLlmCalls`; the run ends with an error event instead of looping on. */
export class MaxLlmCallsExceededError extends ToolsmithError {
  constructor(agentName: string, maxLlmCalls: number) {
    super(
      'MAX_LLM_CALLS_EXCEEDED',
      `Agent "${agentName}" reached its limit of ${maxLlmCalls} model calls in one invocation. ` +
        'Raise `maxLlmCalls` on the agent if the task really needs more steps.',
    );
  }
}
