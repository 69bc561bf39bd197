// Entry point of the fixture MCP server over stdio: `node -r ts-node/register/transpile-only stdio-fixture-server.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createFixtureMcpServer } from './fixture-mcp-server';

void createFixtureMcpServer().connect(new StdioServerTransport());
