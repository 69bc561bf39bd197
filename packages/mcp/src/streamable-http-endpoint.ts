import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server as HttpServer, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, type Transport, isInitializeRequest, isLegacyRequest } from '@modelcontextprotocol/server';
import { HttpGuard, HttpGuardError, defaultAllowedHosts, setSecurityHeaders } from '@toolsmith/core/internal';
import { McpEventStore } from './mcp-event-store';
import { thrownMessage } from '@toolsmith/core';

/** Why a request was refused before the MCP transport saw it: the HTTP status and a message for the client. */
interface Refusal {
  status: number;
  message: string;
  headers?: Readonly<Record<string, string>>;
}

/** Who made a request, as an {@link McpAuthenticate} hook decided. */
export interface McpCaller {
  /** Becomes `ctx.userId` of the tool calls this caller makes (user-scoped state and artifacts follow it). */
  userId: string;
}

/**
 * Decides who sends an HTTP request (for example from its `Authorization: Bearer …` header): return the
 * caller, or `undefined` (or throw) to refuse it with 401. Called for every request; a session stays
 * bound to the user who opened it.
 */
export type McpAuthenticate = (request: IncomingMessage) => McpCaller | undefined | Promise<McpCaller | undefined>;

/** Limits and checks of the Streamable HTTP endpoint; every field has a safe default. */
export interface StreamableHttpLimits {
  /** Largest request body, in bytes, read before parsing; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * `Host` header values to answer (DNS-rebinding protection). Default: the bind address (and the
   * loopback names for a loopback bind), with and without the port. Required in practice for a wildcard
   * bind (`0.0.0.0`, `::`), which has no default and then accepts any Host.
   */
  allowedHosts?: string[];
  /** Browser origins allowed to call the endpoint. Default: only pages served by the same host. */
  allowedOrigins?: string[];
  /**
   * Most MCP sessions open at once; a new session over the cap gets 503. Default 100. With `serveMcp`, the
   * 2026-07-28 sessions clients name in `_meta` have the same cap (and `maxSessionsPerUser`, `sessionIdleMs`),
   * counted apart; over it a request is refused with a JSON-RPC error.
   */
  maxSessions?: number;
  /**
   * Most MCP sessions one user (the `userId` from `authenticate`) may have open at once, so one client
   * cannot take every slot; a new session over it gets 429 (after the user's idle sessions are closed).
   * Default 10 with `authenticate`; without it every caller is the one user `mcp`, and only `maxSessions` applies.
   */
  maxSessionsPerUser?: number;
  /** A session with no request for this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * How much of what a session sent over SSE is kept, in bytes, so that a client whose stream dropped
   * resumes it (`Last-Event-ID`) and still gets the call's result; the oldest messages go first.
   * Default 2 MiB per session; `0` keeps nothing and sends no priming events (no resumption).
   */
  resumeBufferBytes?: number;
  /** Authenticates every request; without it every caller is the user `mcp`. */
  authenticate?: McpAuthenticate;
}

/** Options of {@link startStreamableHttpEndpoint}. */
export interface StreamableHttpEndpointOptions extends StreamableHttpLimits {
  /** Default `127.0.0.1`. */
  host?: string;
  /** `0` picks a free port. */
  port: number;
  /** URL path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Connects a new MCP server (one per session, as the SDK requires) to a 2025-era session's transport. */
  connectSession: (transport: Transport) => Promise<void>;
  /**
   * Serves a 2026-07-28 (stateless) request: one with the per-request `_meta` envelope and no session.
   * Called after every check, with the parsed body and `request.auth` set to the caller. Without it,
   * such a request is refused like any request without a session.
   */
  serveModern?: (request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>;
  /** The clock idle expiry reads (tests give their own). Default `Date.now`. */
  now?: () => number;
}

/** A running Streamable HTTP endpoint. */
export interface StreamableHttpEndpoint {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  /** Number of open MCP sessions. */
  readonly openSessions: number;
  /** Closes the sessions idle for longer than `sessionIdleMs` (also done on a timer and before a new session is refused). */
  closeIdleSessions(): Promise<void>;
  /** Ends every open MCP session; clients must initialize again. */
  closeSessions(): Promise<void>;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_MAX_SESSIONS_PER_USER = 10;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
const DEFAULT_RESUME_BUFFER_BYTES = 2 * 1024 * 1024;
/** The `retry` of the priming events: how long a client waits before resuming a dropped stream. */
const RESUME_RETRY_MS = 1000;

interface OpenSession {
  transport: NodeStreamableHTTPServerTransport;
  userId: string;
  lastSeen: number;
}

/**
 * Serves MCP over Streamable HTTP with node's `http` module. 2025-era clients get one SDK transport and
 * one MCP server per session, found by the `Mcp-Session-Id` header (a request without one must be
 * `initialize`); 2026-07-28 requests (no session, the per-request `_meta` envelope) go to `serveModern`. Every
 * request is checked before anything is parsed — Host and Origin, the caller (`authenticate`), then
 * the body size — and sessions are capped and expire when idle.
 */
export async function startStreamableHttpEndpoint(options: StreamableHttpEndpointOptions): Promise<StreamableHttpEndpoint> {
  const path = options.path ?? '/mcp';
  const bindHost = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { maxSessions, maxSessionsPerUser, sessionIdleMs } = sessionLimits(options);
  const sessionsOf = (userId: string) => [...sessions.values()].filter((open) => open.userId === userId).length;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, OpenSession>();
  // The checks every Toolsmith HTTP server shares (core's HttpGuard): Host, Origin, the caller, JSON bodies.
  const guard = new HttpGuard<McpCaller>({
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    maxBodyBytes,
    ...(options.authenticate ? { authenticate: validCaller(options.authenticate) } : {}),
    anonymous: { userId: 'mcp' },
  });

  const closeIdleSessions = async () => {
    const cutoff = now() - sessionIdleMs;
    const idle = [...sessions.entries()].filter(([, session]) => session.lastSeen < cutoff);
    for (const [id] of idle) sessions.delete(id);
    await Promise.all(idle.map(([, session]) => session.transport.close().catch(() => undefined)));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    setSecurityHeaders(response);
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      return refuse(response, { status: 404, message: `Not found; the MCP endpoint is ${path}` });
    }
    const caller = await guard.admit(request);
    guard.checkMethod(request, ['GET', 'POST', 'DELETE'], path);
    guard.checkBodyType(request); // a GET or DELETE with a text/plain or form body too (mcp.md: 415 for any body not JSON)

    const sessionId = header(request, 'mcp-session-id');
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    // 404 tells the client its session is gone, so it initializes a new one (spec behaviour).
    if (sessionId !== undefined && !session) return refuse(response, { status: 404, message: 'Unknown MCP session' });
    if (session && session.userId !== caller.userId) return refuse(response, { status: 403, message: 'This MCP session belongs to another user' });
    if (!session && request.method !== 'POST') return refuse(response, { status: 400, message: 'Missing Mcp-Session-Id header' });

    let body: unknown;
    if (request.method === 'POST') body = await guard.readJsonBody(request);
    else await guard.readUnusedBody(request); // a GET's or DELETE's body is checked as a POST's is (mcp.md: 413, 400), then left unused

    (request as IncomingMessage & { auth?: AuthInfo }).auth = { token: '', clientId: caller.userId, scopes: [], extra: { userId: caller.userId } };
    if (session) {
      session.lastSeen = now();
      return session.transport.handleRequest(request, response, body);
    }
    if (!isInitializeRequest(body)) {
      // No session and no handshake: a 2026-07-28 request (the SDK's own classification of the envelope), else a 2025 client that lost its session.
      const legacy = options.serveModern ? await classifiedLegacy(request, body) : true;
      if (typeof legacy === 'string') return refuse(response, { status: 400, message: legacy });
      if (!legacy) return options.serveModern!(request, response, body);
      return refuse(response, { status: 400, message: 'Missing Mcp-Session-Id header (only an initialize request may start a session)' });
    }
    if (sessions.size >= maxSessions || sessionsOf(caller.userId) >= maxSessionsPerUser) await closeIdleSessions();
    if (sessions.size >= maxSessions) return refuse(response, { status: 503, message: `Too many open MCP sessions (at most ${maxSessions}); try again later` });
    if (sessionsOf(caller.userId) >= maxSessionsPerUser) {
      return refuse(response, { status: 429, message: `Too many open MCP sessions for this user (at most ${maxSessionsPerUser}); close one or try again later` });
    }
    const resumeBufferBytes = options.resumeBufferBytes ?? DEFAULT_RESUME_BUFFER_BYTES;
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(resumeBufferBytes > 0 ? { eventStore: new McpEventStore(resumeBufferBytes), retryInterval: RESUME_RETRY_MS } : {}),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, userId: caller.userId, lastSeen: now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await options.connectSession(transport);
    await transport.handleRequest(request, response, body);
  };

  /**
   * The SDK's classification of a request without a session (2025 or 2026-07-28). A body it cannot read
   * (nested so deep that reading it overflows the stack) is the client's fault: the reason for a 400, never a 500 with the raw message.
   */
  const classifiedLegacy = async (request: IncomingMessage, body: unknown): Promise<boolean | string> => {
    try {
      return await isLegacyRequest(await toWebRequest(request, body), body, { maxRequestBodySize: maxBodyBytes });
    } catch (error) {
      const why = error instanceof RangeError ? 'it is nested too deep to read' : thrownMessage(error);
      return `The request is not an MCP request this server can read: ${why}`;
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) response.end();
      else if (error instanceof HttpGuardError) refuse(response, { status: error.status, message: error.message, headers: error.headers });
      else refuse(response, { status: 500, message: thrownMessage(error) });
    });
  });
  await listen(server, bindHost, options.port);
  const address = server.address() as AddressInfo;
  if (!options.allowedHosts) guard.allowHosts(defaultAllowedHosts(bindHost, address.port));
  const sweep = setInterval(() => void closeIdleSessions(), Math.min(sessionIdleMs, 60_000));
  sweep.unref();
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const closeSessions = async () => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((session) => session.transport.close().catch(() => undefined)));
  };
  return {
    url: new URL(`http://${host}:${address.port}${path}`),
    get openSessions() {
      return sessions.size;
    },
    closeIdleSessions,
    closeSessions,
    close: async () => {
      clearInterval(sweep);
      await closeSessions();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The session limits `options` set, with their defaults: 100 sessions, 10 per user with `authenticate` (else the 100), idle for 30 minutes. */
export function sessionLimits(options: Pick<StreamableHttpLimits, 'maxSessions' | 'maxSessionsPerUser' | 'sessionIdleMs' | 'authenticate'>): {
  maxSessions: number;
  maxSessionsPerUser: number;
  sessionIdleMs: number;
} {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  return {
    maxSessions,
    maxSessionsPerUser: options.maxSessionsPerUser ?? (options.authenticate ? DEFAULT_MAX_SESSIONS_PER_USER : maxSessions),
    sessionIdleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
  };
}

/** The hook's caller when it names a user; anything else refuses the request (401). */
function validCaller(hook: McpAuthenticate): McpAuthenticate {
  return async (request) => {
    const caller = await hook(request);
    return caller && typeof caller.userId === 'string' && caller.userId !== '' ? caller : undefined;
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  response.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal.message }, id: null }));
}

function listen(server: HttpServer, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
