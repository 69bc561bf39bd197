import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the {@link WireServer} received. */
export interface RecordedRequest {
  /** The HTTP method, e.g. `POST`. */
  method: string;
  /** Path with query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** The request headers as Node received them (names lower-cased). */
  headers: IncomingMessage['headers'];
  /** The body as UTF-8 text (`''` when there was none). */
  rawBody: string;
  /** `rawBody` parsed as JSON, or `undefined` when it is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read recorded request bodies of every provider's shape
}

/** One Server-Sent Event; `data` that is not a string is sent as JSON. */
export interface SseEvent {
  /** The `event:` name; absent sends only `data:`, as providers that use no event names do. */
  event?: string;
  /** The `data:` payload: a string is sent as is, anything else as JSON. */
  data: unknown;
}

/** How the {@link WireServer} answers one request. */
export type WireReply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | {
      status?: number;
      headers?: Record<string, string>;
      sse: SseEvent[];
      /** Destroy the socket after this many events, as a dropped connection would. */
      cutAfter?: number;
      /** Delay between events in ms (default 0). */
      delayMs?: number;
    }
  | { status: number; headers?: Record<string, string>; text: string }
  /** Never answer (until the client aborts or the server closes): for cancellation tests. */
  | { hang: true };

/** A local HTTP server speaking whatever protocol the test's handler speaks. */
export interface WireServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Errors thrown by the handler (e.g. failed request assertions); tests should expect this to be empty. */
  readonly handlerErrors: unknown[];
  /** Stops the server, destroying open connections (a hanging reply included); resolves once it is closed. */
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 (random port) that answers each request with what `handler`
 * returns. Adapter tests point the official SDK at `url`, so the real client code, serialization and
 * streaming parsers run; the handler asserts on what it received. A handler that throws answers 500
 * with the error text and records it in `handlerErrors`.
 */
export async function startWireServer(
  handler: (request: RecordedRequest, index: number) => WireReply | Promise<WireReply>,
): Promise<WireServer> {
  const requests: RecordedRequest[] = [];
  const handlerErrors: unknown[] = [];
  const sockets = new Set<Socket>();

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, rawBody, body };
    requests.push(recorded);
    let reply: WireReply;
    try {
      reply = await handler(recorded, requests.length - 1);
    } catch (error) {
      handlerErrors.push(error);
      reply = { status: 500, text: `wire-server handler failed: ${(error as Error)?.message ?? String(error)}` };
    }
    await send(res, reply);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handlerErrors,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function send(res: ServerResponse, reply: WireReply): Promise<void> {
  if ('hang' in reply) return;
  if ('json' in reply) {
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.json));
    return;
  }
  if ('text' in reply) {
    res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
    res.end(reply.text);
    return;
  }
  res.writeHead(reply.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...reply.headers,
  });
  for (let i = 0; i < reply.sse.length; i++) {
    if (reply.cutAfter !== undefined && i >= reply.cutAfter) {
      res.socket?.destroy();
      return;
    }
    const { event, data } = reply.sse[i];
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  }
  if (reply.cutAfter !== undefined && reply.cutAfter <= reply.sse.length) {
    res.socket?.destroy();
    return;
  }
  res.end();
}

/**
 * Parses a recorded SSE fixture (`event:`/`data:` lines separated by blank lines) into events,
 * so adapter tests can replay `__fixtures__/<scenario>.chunks.txt` files.
 */
export function parseSseFixture(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) events.push(event ? { event, data: data.join('\n') } : { data: data.join('\n') });
  }
  return events;
}
