// A module for `toolsmith mcp` tests: one function tool.
import { functionTool } from '@toolsmith/core';

export const greet = functionTool({
  name: 'greet',
  description: 'Greets someone by name.',
  parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
  execute: (args: { name: string }) => ({ greeting: `Hello, ${args.name}!` }),
});
