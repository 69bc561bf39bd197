import type { ServerContext } from '@modelcontextprotocol/server';

/** What the SDK gives a server's request handler (the v2 SDK's per-request context). */
export type McpRequestExtra = ServerContext;
