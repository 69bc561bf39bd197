import { WeatherService, WeatherTools } from '@toolsmith/example-kit';
import { type McpServerHandle, serveMcp } from '@toolsmith/mcp';

/**
 * Serves the weather-agent example's {@link WeatherTools} (from `@toolsmith/example-kit`) as an MCP server: over stdio (for clients that start it as a child
 * process, like Claude Desktop or McpToolset's `{ command }`), or over Streamable HTTP.
 */
export function serveWeatherTools(transport: 'stdio' | { http: { port: number; host?: string } }): Promise<McpServerHandle> {
  return serveMcp({
    tools: [WeatherTools],
    providers: [WeatherService],
    transport,
    name: 'weather',
    instructions: 'Weather reports for a few cities.',
  });
}

// `node dist/serve.js` serves over stdio; `node dist/serve.js --http 3000` over HTTP on 127.0.0.1:3000.
if (require.main === module) {
  const httpFlag = process.argv.indexOf('--http');
  const transport = httpFlag === -1 ? 'stdio' : { http: { port: Number(process.argv[httpFlag + 1] ?? 3000) } };
  serveWeatherTools(transport).then(
    (server) => {
      // stdout belongs to the protocol over stdio, so the banner goes to stderr.
      console.error(server.url ? `Weather MCP server at ${server.url.href}` : 'Weather MCP server on stdio');
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
