import { JsonSchema } from '../model/json-schema';
import { BaseTool } from '../tools/base-tool';
import { ToolContext } from '../tools/tool-context';

/** The tool behind {@link loadMemory}: searches the user's memory for a query chosen by the model. */
export class LoadMemoryTool extends BaseTool {
  readonly name = 'load_memory';
  readonly description = 'Loads the memory for the current user: past conversations that match the query.';
  readonly parameters: JsonSchema = {
    type: 'object',
    properties: { query: { type: 'string', description: 'What to look for in past conversations.' } },
    required: ['query'],
    additionalProperties: false,
  };

  async run(args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown>> {
    const { memories } = await context.searchMemory(args.query as string);
    return { memories };
  }
}

/** Lets the model search the user's long-term memory (needs a `memoryService` on the Runner). */
export const loadMemory: BaseTool = new LoadMemoryTool();
