// The MCP client the official conformance suite's client scenarios run (mcp-conformance.e2e.test.ts):
// McpToolset, used as an agent's runner uses it. The suite starts this process with its test server's
// URL as the last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO.
import { McpToolset } from '../mcp-toolset';
import { acceptFormDefaults } from '../mcp-elicitation-handler';
import { callThrough, toolContext } from './tool-harness';

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  // A form whose every field has a default is accepted with the defaults (SEP-1034), as an app opts in to.
  const toolset = new McpToolset({ transport: { url }, clientName: 'toolsmith-conformance', timeoutMs: 10_000, onElicitation: acceptFormDefaults });
  try {
    const tools = await toolset.getTools(toolContext());
    if (scenario === 'tools_call') {
      const response = await callThrough(toolset, 'add_numbers', { a: 5, b: 3 });
      if (response.isError) throw new Error(`add_numbers failed: ${JSON.stringify(response.response)}`);
    }
    if (scenario === 'sse-retry') await callThrough(toolset, 'test_reconnection', {});
    if (scenario === 'elicitation-sep1034-client-defaults') {
      const response = await callThrough(toolset, 'test_client_elicitation_defaults', {});
      if (response.isError) throw new Error(`test_client_elicitation_defaults failed: ${JSON.stringify(response.response)}`);
    }
    process.stdout.write(`${scenario}: ${tools.map((tool) => tool.name).join(', ')}\n`);
  } finally {
    await toolset.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
