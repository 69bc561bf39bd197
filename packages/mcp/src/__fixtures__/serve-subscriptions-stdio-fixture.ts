// A Toolsmith process serving the conformance resources over stdio, with a tool that tells the subscribed
// clients a resource changed (McpServerHandle.notifyResourceUpdated), as an app would after a write.
// Bundled with esbuild by serve-mcp-subscriptions.test.ts.
import { functionTool } from '@toolsmith/core';
import { type McpServerHandle, serveMcp } from '../serve-mcp';
import { ConformanceOfferings } from './conformance-offerings';

const touch = functionTool({
  name: 'touch_resource',
  description: 'Says that a resource changed.',
  parameters: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'], additionalProperties: false },
  execute: async (args: { uri: string }) => {
    await (await served).notifyResourceUpdated(args.uri);
    return { touched: args.uri };
  },
});
const served: Promise<McpServerHandle> = serveMcp({ tools: [ConformanceOfferings, touch], transport: 'stdio', name: 'subscriptions-stdio' });
