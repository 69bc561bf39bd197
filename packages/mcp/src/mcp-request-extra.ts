import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK gives a server's request handler. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
