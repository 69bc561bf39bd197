import type { IncomingMessage, Server, ServerResponse} from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DevAgentHost } from './dev-agent-host';
import { handleApiRequest } from './api-routes';
import { loadPageBundle } from './page-bundle';

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
}

/** A running dev server. */
export interface DevServer {
  /** Base URL, e.g. `http://127.0.0.1:4100`. */
  url: string;
  /** The port it listens on (the one picked, with port 0). */
  port: number;
  /** Stops accepting connections, ends open streams and closes the agent host. */
  close(): Promise<void>;
}

/**
 * Serves the HTTP/SSE API of a {@link DevAgentHost} under `/api/` and, unless `page: false`, the dev UI
 * at `/`. The page's bundle is made (or read) on the first request for it.
 */
export async function startDevServer(options: StartDevServerOptions): Promise<DevServer> {
  const { host } = options;
  const page = options.page !== false;
  const server: Server = createServer((request, response) => {
    serve(host, page, request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.hostname ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostname}:${address.port}`,
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

async function serve(host: DevAgentHost, page: boolean, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (path.startsWith('/api/')) return handleApiRequest(host, request, response, path);
  if (page && request.method === 'GET') {
    if (path === '/app.js' || path === '/app.css') {
      const bundle = await loadPageBundle();
      const type = path === '/app.js' ? 'text/javascript' : 'text/css';
      response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-cache' });
      response.end(path === '/app.js' ? bundle.js : bundle.css);
      return;
    }
    if (path === '/' || path === '/index.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      response.end(html(host.info().appName));
      return;
    }
  }
  response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: page ? `Nothing at ${path}.` : `Nothing at ${path}: this server has only the API under /api/.` } }));
}

function html(appName: string): string {
  const title = appName.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Toolsmith dev UI</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<div id="app"></div>
<script src="/app.js"></script>
</body>
</html>
`;
}
