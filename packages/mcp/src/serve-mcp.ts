import { randomUUID } from 'node:crypto';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { type ArtifactService, Container, type MemoryService, type Provider, type SessionService, type ToolErrorExposure, isToolset } from '@toolsmith/core';
import { startValidatorWarmUp } from '@toolsmith/core/internal';
import { McpSessionState } from './mcp-session-state';
import { SessionServiceMcpState } from './session-service-mcp-state';
import { createMcpToolServer } from './mcp-tool-server';
import type { McpProtocolEra } from './mcp-request-session';
import { RequestStateSealer } from './mcp-request-state';
import { type ServedTools, resolveServedTools } from './resolve-served-tools';
import { resolveServedOfferings } from './served-offerings';
import { ResourceSubscriptions } from './resource-subscriptions';
import { exitOnOverflow, guardLineLength } from './stdio-line-guard';
import { DEFAULT_MAX_BODY_BYTES, type StreamableHttpLimits, sessionLimits, startStreamableHttpEndpoint } from './streamable-http-endpoint';
import { NamedSessions } from './named-sessions';
import { dropLeadingNotifications } from './stdio-leading-notifications';

/** Where {@link serveMcp} listens for Streamable HTTP, and its limits (body size, Host/Origin, sessions, authentication). */
export interface ServeMcpHttpOptions extends StreamableHttpLimits {
  /** `0` picks a free port (read it from {@link McpServerHandle.url}). */
  port: number;
  /** Default `127.0.0.1` (local only); use `0.0.0.0` to accept other hosts. */
  host?: string;
  /** URL path of the endpoint. Default `/mcp`. */
  path?: string;
}

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions {
  /**
   * What to serve: `@Toolset` classes (and instances), toolsets and tools. A class's `@Resource`,
   * `@ResourceTemplate`, `@Prompt` and `@Complete` methods are served too (a class may offer only those).
   */
  tools: readonly ServedTools[];
  /** Providers of the classes' constructor dependencies (as for the runner). */
  providers?: readonly Provider[];
  /** `stdio` (this process's stdin/stdout) or Streamable HTTP. */
  transport: 'stdio' | { http: ServeMcpHttpOptions };
  /** Server name announced to clients; also the tool contexts' `appName` and `agentName`. Default `toolsmith`. */
  name?: string;
  /** Server version announced to clients. Default `0.1.0`. */
  version?: string;
  /** Instructions announced to clients (how to use these tools). */
  instructions?: string;
  /** Interval of the "still running" progress notifications of long-running tools. Default 5 000 ms. */
  progressIntervalMs?: number;
  /**
   * How long to wait for the user's answer to a confirmation (2025-11-25: the elicitation; 2026-07-28:
   * how long the `requestState` of an `input_required` answer stays valid). Default 10 minutes.
   */
  confirmationTimeoutMs?: number;
  /**
   * Secrets (each at least 32 bytes) that sign the `requestState` of 2026-07-28 confirmations (HMAC-SHA256).
   * The first signs, all verify: rotate by putting a new key first and removing the old one after
   * `confirmationTimeoutMs`. Give the same keys to every process behind one URL. Default: a random key of
   * this process, so an answer is accepted only by the process that asked.
   */
  requestStateKeys?: readonly (string | Uint8Array)[];
  /**
   * Where the tools' state lives, as with the runner: each MCP session becomes a session of this store
   * (app `name`, the authenticated client's id as user, else `mcp`; the MCP session id), and each call
   * is appended as an event with its response and state delta. `app:` and `user:` keys are then shared
   * with agents on the same store, and state survives restarts with a durable store
   * (`PostgresSessionService`). Default: in this process's memory, a session's keys forgotten when it ends.
   */
  sessionService?: SessionService;
  /** What `ctx.searchMemory` searches (as the runner's `memoryService`); without it the call fails with `SERVICE_NOT_CONFIGURED`. */
  memoryService?: MemoryService;
  /** Where `ctx.saveArtifact` / `loadArtifact` / `listArtifacts` keep files, per app (`name`), user and MCP session; without it they fail with `SERVICE_NOT_CONFIGURED`. */
  artifactService?: ArtifactService;
  /**
   * What the client (and its model) is told of an error a tool throws, as the runner's `toolErrorExposure`:
   * `'message'` (default), `'generic'`, or a function (no text from it sends the generic text). See docs/tools.md.
   */
  toolErrorExposure?: ToolErrorExposure;
  /**
   * Over stdio: the longest message (one line) a client may send, in bytes. A longer one ends the
   * process with a message on stderr and exit status 1. Default 4 MiB. (Over HTTP: `http.maxBodyBytes`.)
   */
  maxMessageBytes?: number;
}

/** A running MCP server started by {@link serveMcp}. */
export interface McpServerHandle {
  /** The endpoint of an HTTP server, e.g. `http://127.0.0.1:41234/mcp`; undefined for stdio. */
  readonly url?: URL;
  /**
   * Tells the clients that subscribed to the resource `uri` that it changed
   * (`notifications/resources/updated`; they read it again when they need it): 2025-11-25 sessions that
   * sent `resources/subscribe` for it, and 2026-07-28 clients with an open `subscriptions/listen` that
   * names it. Nobody else is told. A session whose connection is gone is dropped from the subscriptions.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Stops serving: ends every session, stops listening and closes the served toolsets. */
  close(): Promise<void>;
}

/**
 * Serves Toolsmith tools as an MCP server over stdio or Streamable HTTP, with the same schemas,
 * validation and executor as the runner. The MCP session is each call's session (its state lives as
 * long as the server, or in `sessionService`); a tool that needs confirmation asks the user through MCP elicitation
 * (2025-11-25) or an `input_required` answer with a signed, single-use `requestState` (2026-07-28), and is refused
 * where the client cannot ask; long-running tools send progress notifications. Both protocol eras are served,
 * chosen by each client.
 *
 * @example
 * ```ts
 * const server = await serveMcp({
 *   tools: [WeatherTools],
 *   providers: [WeatherApi],
 *   transport: { http: { port: 3000 } },
 * });
 * console.log(`MCP endpoint: ${server.url}`);
 * ```
 */
export async function serveMcp(options: ServeMcpOptions): Promise<McpServerHandle> {
  // One container builds every class, for its tools and for its resources, prompts and completions.
  const container = new Container(options.providers ?? []);
  const resolveTools = resolveServedTools(options.tools, container);
  const offerings = resolveServedOfferings(options.tools, container);
  startValidatorWarmUp();
  const name = options.name ?? 'toolsmith';
  const state = options.sessionService ? new SessionServiceMcpState(options.sessionService, name) : new McpSessionState();
  const requestStates = new RequestStateSealer(options.requestStateKeys);
  const subscriptions = new ResourceSubscriptions();
  // 2026-07-28 sessions named in `_meta`: the 2025 sessions' limits (stdio: the defaults), counted apart.
  const limits = sessionLimits(options.transport === 'stdio' ? {} : options.transport.http);
  const namedSessions = new NamedSessions(
    { maxSessions: limits.maxSessions, maxSessionsPerUser: limits.maxSessionsPerUser, idleMs: limits.sessionIdleMs, now: Date.now },
    (userId, sessionId) => state.endSession(sessionId, userId),
  );
  const sweep = setInterval(() => namedSessions.forgetIdle(), Math.min(limits.sessionIdleMs, 60_000));
  sweep.unref();
  const createServer = (era: McpProtocolEra, connectionSessionId?: string) =>
    createMcpToolServer({
      era,
      requestStates,
      connectionSessionId,
      name,
      version: options.version ?? '0.1.0',
      appName: name,
      instructions: options.instructions,
      resolveTools,
      offerings,
      state,
      subscriptions,
      namedSessions,
      progressIntervalMs: options.progressIntervalMs ?? 5000,
      confirmationTimeoutMs: options.confirmationTimeoutMs ?? 600_000,
      memoryService: options.memoryService,
      artifactService: options.artifactService,
      toolErrorExposure: options.toolErrorExposure,
    });
  const closeToolsets = async () => {
    await Promise.all(options.tools.filter(isToolset).map((toolset) => toolset.close?.()));
  };

  if (options.transport === 'stdio') {
    // One client per process: the connection is the session of every request that names none (both eras).
    const connectionSessionId = randomUUID();
    // Notifications before the first request are dropped: they answer nothing, and must not pick the era.
    const input = dropLeadingNotifications(guardLineLength(process.stdin, options.maxMessageBytes ?? DEFAULT_MAX_BODY_BYTES, exitOnOverflow));
    // The SDK reads the first message: `initialize` pins a 2025-era server, a 2026-07-28 request a modern one.
    const served = serveStdio(
      ({ era }) => {
        const server = createServer(era, connectionSessionId);
        // The SDK routes this server's resource notifications onto the connection's listen streams.
        if (era === 'modern') subscriptions.trackModern(server);
        return server;
      },
      { transport: new StdioServerTransport(input, process.stdout) },
    );
    return {
      notifyResourceUpdated: (uri) => subscriptions.notifyUpdated(uri),
      close: async () => {
        clearInterval(sweep);
        await served.close();
        await closeToolsets();
      },
    };
  }

  // 2026-07-28 requests: one server per request, as the protocol has no session (the endpoint checked the caller first).
  const modern = createMcpHandler(() => createServer('modern'), { legacy: 'reject', maxRequestBodySize: options.transport.http.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES });
  subscriptions.publishModernTo((uri) => modern.notify.resourceUpdated(uri));
  const serveModern = toNodeHandler(modern, { maxRequestBodySize: options.transport.http.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES });

  const endpoint = await startStreamableHttpEndpoint({
    ...options.transport.http,
    serveModern: (request, response, body) => serveModern(request, response, body),
    connectSession: async (transport) => {
      await createServer('legacy').connect(transport);
      // `connect` chained the endpoint's handler into `onclose`; the session's own keys go with it too.
      const connectedOnClose = transport.onclose;
      transport.onclose = () => {
        connectedOnClose?.();
        if (transport.sessionId) state.endSession(transport.sessionId);
      };
    },
  });
  return {
    url: endpoint.url,
    notifyResourceUpdated: (uri) => subscriptions.notifyUpdated(uri),
    close: async () => {
      clearInterval(sweep);
      await endpoint.close();
      await modern.close();
      await closeToolsets();
    },
  };
}
