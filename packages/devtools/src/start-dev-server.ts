import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpGuard, defaultAllowedHosts, hasBearerToken, newLaunchToken, requestPath, setSecurityHeaders } from '@toolsmith/core/internal';
import type { DevAgentHost } from './dev-agent-host';
import { checkUnusedBody, handleApiRequest, sendError } from './api-routes';
import { DevApiError } from './dev-api-error';
import { loadPageBundle } from './page-bundle';

/** Bodies larger than this are refused (413): the API takes messages and tool arguments, not uploads. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link startDevServer}. */
export interface StartDevServerOptions {
  /** The agent to serve. */
  host: DevAgentHost;
  /** Serve the page too (`toolsmith web`), or only the API (`toolsmith api`). Default true. */
  page?: boolean;
  /** Interface to listen on. Default `127.0.0.1`: the API runs tools, so it is not offered to the network unless asked. */
  hostname?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * The secret every API request must carry as `Authorization: Bearer <token>`. Default: 32 random bytes
   * made for this launch (read it from {@link DevServer.token}).
   */
  token?: string;
  /**
   * `Host` header values to answer. Default: for a loopback bind `127.0.0.1`, `localhost` and `[::1]`
   * (with and without the port), for another address that address; a wildcard bind (`0.0.0.0`) answers any.
   */
  allowedHosts?: string[];
}

/** A running dev server. */
export interface DevServer {
  /** Base URL, e.g. `http://127.0.0.1:4100`. */
  url: string;
  /** The page's URL with the launch token in its fragment, e.g. `http://127.0.0.1:4100/#token=…`: what `toolsmith web` opens. */
  pageUrl: string;
  /** The launch token every API request must send as `Authorization: Bearer <token>`. */
  token: string;
  /** The port it listens on (the one picked, with port 0). */
  port: number;
  /** Stops accepting connections, ends open streams and closes the agent host. */
  close(): Promise<void>;
}

/**
 * Serves the HTTP/SSE API of a {@link DevAgentHost} under `/api/` and, unless `page: false`, the dev UI
 * at `/`. Every request goes through core's HTTP guard first (docs/devtools.md, "Security"): the Host
 * must be one the server listens on, a browser's Origin must be the server's own, an API request must
 * carry the launch token, bodies must be JSON of at most 1 MiB, and no page may frame it.
 * The page's bundle is made (or read) on the first request for it.
 */
export async function startDevServer(options: StartDevServerOptions): Promise<DevServer> {
  const { host } = options;
  const page = options.page !== false;
  const token = options.token ?? newLaunchToken();
  const guard = new HttpGuard<true>({
    maxBodyBytes: MAX_BODY_BYTES,
    authenticate: (request) => (hasBearerToken(request, token) || undefined),
    unauthorizedHint: page
      ? 'send the launch token as "Authorization: Bearer <token>"; open the page from the URL toolsmith web printed (it carries the token).'
      : 'send the launch token toolsmith api printed as "Authorization: Bearer <token>".',
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  const server: Server = createServer((request, response) => {
    setSecurityHeaders(response);
    serve(host, guard, page, request, response).catch((error: unknown) => {
      if (response.headersSent) response.end();
      else sendError(response, error);
    });
  });
  const bindHost = options.hostname ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => resolve());
  });
  const address = server.address() as AddressInfo;
  if (!options.allowedHosts) guard.allowHosts(defaultAllowedHosts(bindHost, address.port));
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostname}:${address.port}`;
  return {
    url,
    pageUrl: `${url}/#token=${token}`,
    token,
    port: address.port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // open SSE streams would keep close() waiting
      });
      await host.close();
    },
  };
}

async function serve(host: DevAgentHost, guard: HttpGuard<true>, page: boolean, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = requestPath(request);
  // Host and Origin for everything (a rebinding page must not even read the page); the token for the API.
  guard.checkHostAndOrigin(request);
  if (path.startsWith('/api/')) {
    await guard.authenticate(request);
    return handleApiRequest(host, guard, request, response, path);
  }
  const asset = path === '/app.js' || path === '/app.css';
  if (page && (asset || path === '/' || path === '/index.html')) {
    guard.checkMethod(request, ['GET'], path);
    await checkUnusedBody(guard, request); // the page's routes check a body as the API's do
    if (asset) {
      const bundle = await loadPageBundle();
      const type = path === '/app.js' ? 'text/javascript' : 'text/css';
      response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-cache' });
      response.end(path === '/app.js' ? bundle.js : bundle.css);
      return;
    }
    // `no-referrer`: the token is in the fragment, which is never sent, but nothing else leaks either.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    response.end(PAGE_HTML);
    return;
  }
  throw new DevApiError('NOT_FOUND', page ? `Nothing at ${path}.` : `Nothing at ${path}: this server has only the API under /api/.`);
}

/**
 * The page: the same for every app, with no data of the app (not even its name, which the page puts in the
 * title once `/api/info` answers it with the token).
 */
const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Toolsmith dev UI</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<div id="app"></div>
<script src="/app.js"></script>
</body>
</html>
`;
