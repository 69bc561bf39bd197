import type { BaseTool } from '../tools/base-tool';
import { functionTool } from '../function-tool/function-tool';

/**
 * Ends the enclosing `LoopAgent` when the model calls it: sets `actions.escalate` (and
 * `skipSummarization`, so no further model call comments on it).
 */
export const exitLoop: BaseTool = functionTool({
  name: 'exit_loop',
  description: 'Exits the loop. Call this function only when you are instructed to do so.',
  execute: (_args, context) => {
    context.actions.escalate = true;
    context.actions.skipSummarization = true;
    return {};
  },
});
