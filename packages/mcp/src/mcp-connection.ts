import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type CallToolResult, ErrorCode, McpError, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_TOOL_FILE_BYTES, ToolsmithError } from '@toolsmith/core';
import { McpConnectionError } from './mcp-errors';

/** How to start an MCP server as a child process and talk to it over its stdin/stdout. */
export interface McpStdioTransportOptions {
  /** The executable, e.g. `node` or `npx`. */
  command: string;
  /** Arguments passed to `command`, e.g. `['server.js']`; default none. */
  args?: string[];
  /** Added to the safe default environment the SDK passes on (PATH, HOME, …). */
  env?: Record<string, string>;
  /** Working directory of the child process. */
  cwd?: string;
  /** What to do with the child's stderr; `inherit` (the default) shows its logs. */
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A fixed set of HTTP connection details, resolved for one run. */
export interface McpHttpEndpoint {
  url: URL;
  headers: Record<string, string>;
  /** Adds the user's OAuth token to every request (and stores what the SDK refreshes). */
  authProvider?: OAuthClientProvider;
}

/** What a connection needs to open (and re-open) its session. */
export interface McpConnectionOptions {
  /** Describes the server in errors, e.g. `stdio:node server.js`. */
  label: string;
  /** Builds a fresh transport for each session. */
  createTransport: () => Transport;
  /** Timeout of each request, in milliseconds. */
  timeoutMs: number;
  /** Timeout of starting the server and the handshake, in milliseconds. */
  connectTimeoutMs: number;
  clientName: string;
  clientVersion: string;
}

/** Options of one request. */
export interface McpRequestOptions {
  signal?: AbortSignal;
  /** Called with each progress notification the server sends for this request. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * One MCP client session to one server: connected lazily on first use, reused afterwards, and
 * re-opened once when the server dropped it. Every SDK failure comes out as a {@link McpConnectionError}.
 */
export class McpConnection {
  private client?: Client;
  private connecting?: Promise<Client>;
  private closed = false;

  constructor(private readonly options: McpConnectionOptions) {}

  /** Describes the server in errors. */
  get label(): string {
    return this.options.label;
  }

  /** Every tool the server offers (all pages). Listing is idempotent, so any lost session is retried once. */
  async listTools(requestOptions: McpRequestOptions = {}): Promise<McpToolInfo[]> {
    return this.withSession(
      async (client) => {
        const tools: McpToolInfo[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? undefined : { cursor }, this.requestOptions(requestOptions));
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor);
        return tools;
      },
      () => true,
      requestOptions.signal,
    );
  }

  /**
   * Calls one tool. A call is retried on a new session only when the server cannot have run it (its
   * HTTP session was unknown, or the transport was already gone); a server that dies mid-call is
   * reported, not called twice.
   */
  async callTool(name: string, args: Record<string, unknown>, requestOptions: McpRequestOptions = {}): Promise<CallToolResult> {
    return this.withSession(
      (client) => client.callTool({ name, arguments: args }, undefined, this.requestOptions(requestOptions)) as Promise<CallToolResult>,
      isNotDelivered,
      requestOptions.signal,
    );
  }

  /** Ends the session (and, for stdio, the server process). The connection may be used again later. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.connecting;
    this.connecting = undefined;
    const client = this.client ?? (await pending?.catch(() => undefined));
    this.client = undefined;
    this.closed = false;
    if (client) await closeClient(client);
  }

  private requestOptions(options: McpRequestOptions) {
    const { onProgress } = options;
    return {
      timeout: this.options.timeoutMs,
      signal: options.signal,
      // Progress means the server is alive: a long-running tool is not cut off while it reports.
      ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
    };
  }

  private async withSession<T>(
    operation: (client: Client) => Promise<T>,
    mayRetry: (error: unknown) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const client = await this.session();
    try {
      return await operation(client);
    } catch (error) {
      if (signal?.aborted || !isSessionLost(error) || !mayRetry(error)) throw this.toError(error, signal);
      await this.discard(client);
    }
    try {
      return await operation(await this.session());
    } catch (error) {
      throw this.toError(error, signal);
    }
  }

  private async session(): Promise<Client> {
    if (this.client) return this.client;
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const client = new Client({ name: this.options.clientName, version: this.options.clientVersion });
    // A server that exits or drops the connection ends this session; the next request opens a new one.
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    try {
      await client.connect(this.options.createTransport(), { timeout: this.options.connectTimeoutMs });
    } catch (error) {
      await closeClient(client);
      const reason = error instanceof Error ? error.message : String(error);
      throw new McpConnectionError('MCP_CONNECTION_FAILED', this.label, `could not connect: ${reason}`, { cause: error });
    }
    if (this.closed) {
      await closeClient(client);
      throw new McpConnectionError('MCP_CONNECTION_CLOSED', this.label, 'the connection was closed while connecting');
    }
    this.client = client;
    return client;
  }

  private async discard(client: Client): Promise<void> {
    if (this.client === client) this.client = undefined;
    await closeClient(client);
  }

  private toError(error: unknown, signal: AbortSignal | undefined): ToolsmithError {
    if (ToolsmithError.isInstance(error)) return error;
    const label = this.label;
    const reason = error instanceof Error ? error.message : String(error);
    if (signal?.aborted) return new McpConnectionError('MCP_CANCELLED', label, 'the request was cancelled', { cause: error });
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) {
        return new McpConnectionError('MCP_TIMEOUT', label, `no answer within ${this.options.timeoutMs} ms`, { cause: error });
      }
      if (error.code === ErrorCode.ConnectionClosed) {
        return new McpConnectionError('MCP_CONNECTION_CLOSED', label, 'the server closed the connection', { cause: error });
      }
      return new McpConnectionError('MCP_PROTOCOL_ERROR', label, reason, { cause: error });
    }
    if (isSessionLost(error)) {
      return new McpConnectionError('MCP_CONNECTION_CLOSED', label, `the session was lost: ${reason}`, { cause: error });
    }
    // The SDK rejects a result that fails its schema with the zod error itself (it has `issues`).
    if (error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)) {
      return new McpConnectionError('MCP_PROTOCOL_ERROR', label, 'the server sent a result that is not valid MCP', { cause: error });
    }
    return new McpConnectionError('MCP_CONNECTION_FAILED', label, reason, { cause: error });
  }
}

/**
 * The largest message read from a stdio server: a result whose files reach the default file limit, in
 * base64, plus room for the rest. The SDK's own default (10 MiB) would end the connection on about
 * 7.5 MiB of files, long before the runner's limit (`TOOL_FILES_TOO_LARGE`) could say so.
 */
const STDIO_MAX_MESSAGE_BYTES = Math.ceil(DEFAULT_MAX_TOOL_FILE_BYTES / 3) * 4 + 8 * 1024 * 1024;

/** Builds the transport factory and label of a stdio server. */
export function stdioTransport(options: McpStdioTransportOptions): Pick<McpConnectionOptions, 'label' | 'createTransport'> {
  return {
    label: `stdio:${[options.command, ...(options.args ?? [])].join(' ')}`,
    createTransport: () =>
      new StdioClientTransport({
        command: options.command,
        args: options.args,
        env: options.env ? { ...getDefaultEnvironment(), ...options.env } : undefined,
        cwd: options.cwd,
        stderr: options.stderr ?? 'inherit',
        maxBufferSize: STDIO_MAX_MESSAGE_BYTES,
      }),
  };
}

/** Builds the transport factory and label of a Streamable HTTP server. */
export function httpTransport(endpoint: McpHttpEndpoint): Pick<McpConnectionOptions, 'label' | 'createTransport'> {
  return {
    label: `${endpoint.url.origin}${endpoint.url.pathname}`,
    createTransport: () =>
      new StreamableHTTPClientTransport(endpoint.url, { requestInit: { headers: endpoint.headers }, ...(endpoint.authProvider ? { authProvider: endpoint.authProvider } : {}) }),
  };
}

/** The session is gone: the transport closed, or the HTTP server no longer knows the session id. */
function isSessionLost(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return isNotDelivered(error);
}

/** The request never reached a live session, so the server cannot have acted on it. */
function isNotDelivered(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  return error instanceof Error && error.message === 'Not connected';
}

async function closeClient(client: Client): Promise<void> {
  client.onclose = undefined;
  const transport = client.transport;
  // Tell an HTTP server the session is over (it may answer 405; either way we are done with it).
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
    await transport.terminateSession().catch(() => undefined);
  }
  await client.close().catch(() => undefined);
}
