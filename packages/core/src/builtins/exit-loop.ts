import { JsonSchema } from '../model/json-schema';
import { BaseTool } from '../tools/base-tool';
import { ToolContext } from '../tools/tool-context';

/** The tool behind {@link exitLoop}: escalates, ending the enclosing `LoopAgent`, and ends the turn. */
export class ExitLoopTool extends BaseTool {
  readonly name = 'exit_loop';
  readonly description = 'Exits the loop. Call this function only when you are instructed to do so.';
  readonly parameters: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

  run(_args: Record<string, unknown>, context: ToolContext): Record<string, unknown> {
    context.actions.escalate = true;
    context.actions.skipSummarization = true;
    return {};
  }
}

/** Ends the enclosing `LoopAgent` when the model calls it (sets `actions.escalate`). */
export const exitLoop: BaseTool = new ExitLoopTool();
