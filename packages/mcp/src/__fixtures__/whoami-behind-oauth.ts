import { functionTool } from '@toolsmith/core';
import type { OAuth2TestServer } from '@toolsmith/core/testing';
import { type McpServerHandle, serveMcp } from '../serve-mcp';

/**
 * serveMcp over HTTP with one tool, `whoami` (answers `{ userId }`), whose `authenticate` hook accepts a
 * live bearer token of the local OAuth2 test server `oauth` (its subject is the user) while `accepts()`
 * says so (default: always).
 */
export function serveWhoamiBehindOAuth(oauth: OAuth2TestServer, accepts: () => boolean = () => true): Promise<McpServerHandle> {
  const whoami = functionTool({ name: 'whoami', description: 'Says who is calling.', execute: (_: unknown, ctx) => ({ userId: ctx.userId }) });
  return serveMcp({
    tools: [whoami],
    transport: {
      http: {
        port: 0,
        authenticate: (request) => {
          const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
          const facts = token && accepts() ? oauth.introspect(token) : undefined;
          return facts ? { userId: facts.subject } : undefined;
        },
      },
    },
  });
}
