import { type StreamableHttpEndpoint, startStreamableHttpEndpoint } from '../streamable-http-endpoint';
import { createFixtureMcpServer } from './fixture-mcp-server';

/** The fixture MCP server over Streamable HTTP on 127.0.0.1 (a free port), in this process. */
export function startFixtureHttpServer(port = 0): Promise<StreamableHttpEndpoint> {
  return startStreamableHttpEndpoint({ port, connectSession: (transport) => createFixtureMcpServer().connect(transport) });
}
