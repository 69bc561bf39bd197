// Entry point of the fixture MCP server over stdio: run with `sourceProcessArgs('stdio-fixture-server.ts')`.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createFixtureMcpServer } from './fixture-mcp-server';

void createFixtureMcpServer().connect(new StdioServerTransport());
