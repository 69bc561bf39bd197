// An MCP server as the MCP authorization spec describes one: in front of a `serveMcp` endpoint (which
// checks bearer tokens with its `authenticate` hook), a small node:http server that publishes the
// protected resource metadata (RFC 9728) naming the authorization server, and passes every other
// request through, byte for byte, recording the `Authorization` header each MCP request carried.
import { type IncomingMessage, type Server, type ServerResponse, createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running {@link startProtectedResourceFront}. */
export interface ProtectedResourceFront {
  /** The MCP endpoint clients use: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The `Authorization` header of every request to the MCP endpoint, in order (`undefined` when none). */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

/** What the front says besides the authorization server. */
export interface ProtectedResourceFrontOptions {
  /** The metadata's `resource`; default the front's own MCP URL. */
  resource?: string;
  /** The metadata's `scopes_supported`; default none. */
  scopesSupported?: string[];
  /** Added to every `401` of the endpoint as `WWW-Authenticate: Bearer scope="…"`; default none (serveMcp's own `401`). */
  challengeScope?: string;
  /** Refuses every MCP request that carries a token with `403 insufficient_scope` naming this scope; default none. */
  insufficientScope?: string;
  /**
   * Refuses a `tools/call` whose token's scope (`scopeOf`, space-separated) lacks `scope`, with `403
   * insufficient_scope` naming it (and the resource metadata URL); other requests pass. Default none.
   */
  callScope?: {
    scope: string;
    scopeOf: (token: string) => string | undefined;
    /** Awaited before the `index`th refusal (from 0) is sent; default none. */
    beforeRefusal?: (index: number) => Promise<void>;
    /** Told of each `tools/call` let through; default none. */
    passed?: () => void;
  };
}

/** Starts the front of the MCP endpoint `target` (`http://127.0.0.1:<port>/mcp`), whose authorization server is `authorizationServer`. */
export async function startProtectedResourceFront(target: URL, authorizationServer: string, options: ProtectedResourceFrontOptions = {}): Promise<ProtectedResourceFront> {
  const authorizations: Array<string | undefined> = [];
  let url = '';
  let refusals = 0;
  /** Sends the request on to the MCP endpoint (`body` when it was read already, else piped) and its answer back. */
  const passOn = (req: IncomingMessage, res: ServerResponse, body?: Buffer) => {
    const upstream = forward({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      const headers = { ...answer.headers };
      if (answer.statusCode === 401 && options.challengeScope) headers['www-authenticate'] = `Bearer scope="${options.challengeScope}"`;
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/oauth-protected-resource/mcp') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ resource: options.resource ?? url, authorization_servers: [authorizationServer], ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}) }));
      return;
    }
    if (req.url?.startsWith('/mcp')) authorizations.push(req.headers.authorization);
    if (req.url?.startsWith('/mcp') && req.headers.authorization && options.insufficientScope) {
      res.writeHead(403, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${options.insufficientScope}"` });
      res.end();
      return;
    }
    const callScope = options.callScope;
    if (!(req.url?.startsWith('/mcp') && req.method === 'POST' && callScope)) return passOn(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const granted = token ? (callScope.scopeOf(token) ?? '').split(' ') : [];
      if (token && (JSON.parse(body.toString('utf8')) as { method?: string }).method === 'tools/call' && !granted.includes(callScope.scope)) {
        const metadata = `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;
        void (callScope.beforeRefusal?.(refusals++) ?? Promise.resolve()).then(() => {
          res.writeHead(403, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${callScope.scope}", resource_metadata="${metadata}"` });
          res.end();
        });
        return;
      }
      if (token && (JSON.parse(body.toString('utf8')) as { method?: string }).method === 'tools/call') callScope.passed?.();
      passOn(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A front's `callScope` hooks for `calls` parallel calls refused for lack of scope: no refusal is sent
 * before all of them arrived; the first is then sent, the others once a call went through.
 */
export function parallelRefusals(calls: number): { beforeRefusal(index: number): Promise<void>; passed(): void } {
  let allArrived!: () => void;
  let onePassed!: () => void;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  const passed = new Promise<void>((resolve) => (onePassed = resolve));
  return {
    async beforeRefusal(index) {
      if (index === calls - 1) allArrived();
      await arrived;
      if (index > 0 && index < calls) await passed;
    },
    passed: () => onePassed(),
  };
}
