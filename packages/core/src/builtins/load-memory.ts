import type { BaseTool } from '../tools/base-tool';
import { preCheckedSchema } from '../scanning/tool-scanner';
import { functionTool } from '../function-tool/function-tool';

/** Lets the model search the user's long-term memory (needs a `memoryService` on the Runner). */
export const loadMemory: BaseTool = functionTool<{ query: string }>({
  name: 'load_memory',
  description: 'Loads the memory for the current user: past conversations that match the query.',
  parameters: preCheckedSchema({
    type: 'object',
    properties: { query: { type: 'string', description: 'What to look for in past conversations.' } },
    required: ['query'],
    additionalProperties: false,
  }),
  execute: async ({ query }, context) => ({ memories: (await context.searchMemory(query)).memories }),
});
