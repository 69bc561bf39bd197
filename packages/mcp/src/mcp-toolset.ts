import { computeScopeUnion, isStrictScopeSuperset, validateClientMetadataUrl } from '@modelcontextprotocol/client';
import { type AuthConfig, type BaseTool, type CredentialKey, REQUEST_CONFIRMATION, REQUEST_CREDENTIAL, type ReadonlyContext, type Toolset, ToolsmithError, authConfigId, isCredentialExpired, thrownMessage } from '@toolsmith/core';
import { type McpAuthChallenge, authChallengeOf } from './mcp-auth-challenge';
import { McpAuthorization } from './mcp-authorization';
import { type McpClientCredentialsOptions, McpClientCredentialsProvider } from './mcp-client-credentials';
import { McpCrossAppAccess, type McpCrossAppAccessOptions } from './mcp-cross-app-access';
import {
  McpConnection,
  type McpConnectionOptions,
  type McpProtocolChoice,
  type McpStdioTransportOptions,
  httpTransport,
  stdioTransport,
} from './mcp-connection';
import { McpConnectionError } from './mcp-errors';
import { McpGrantTokenProvider } from './mcp-grant-token-provider';
import { DEFAULT_AUTH_REQUEST_TIMEOUT_MS, authRequestTimeoutProblem } from './limited-auth-fetch';
import { McpCredentialProvider, type McpOAuthOptions } from './mcp-oauth-provider';
import { McpSignInTool, type McpSignInReason } from './mcp-sign-in-tool';
import { type McpAuthChallengeHandler, type McpProgressListener, type McpRemoteTool, McpTool } from './mcp-tool';
import { mcpClientSessionId } from './mcp-client-session-id';
import type { McpElicitationHandler } from './mcp-elicitation-handler';
import { promptMessagesToContents } from './mcp-prompt-messages';
import type { McpCompletion, McpCompletionTarget, McpPrompt, McpPromptInfo, McpResourceInfo, McpResourceTemplateInfo } from './mcp-remote-offerings';
import type { McpResourceContents } from './mcp-resource-contents';
import { McpListResourcesTool, McpReadResourceTool } from './mcp-resource-tools';

/** Where a {@link McpToolset}'s server listens over Streamable HTTP. */
export interface McpHttpTransportOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string | URL;
  /**
   * Headers sent with every request: fixed, or computed per run from the context (for example a
   * user's token from state). Each distinct set of headers gets its own session, so one user's
   * token never travels on another user's session. A function that throws or rejects fails the request
   * with `MCP_HEADERS_FAILED` (the listing, so the run), and nothing is sent.
   */
  headers?: Record<string, string> | ((context: ReadonlyContext) => Record<string, string> | Promise<Record<string, string>>);
}

/** Options of {@link McpToolset}. */
export interface McpToolsetOptions {
  /** How to reach the server: a command to run (stdio) or a URL (Streamable HTTP). */
  transport: McpStdioTransportOptions | McpHttpTransportOptions;
  /**
   * Which of the server's tools to offer: a list of their server-side names, or a predicate (it may be
   * async). A predicate that throws or rejects fails the listing with `MCP_TOOL_FILTER_FAILED`.
   */
  toolFilter?: readonly string[] | ((tool: McpRemoteTool, context: ReadonlyContext) => boolean | Promise<boolean>);
  /** Prepended to every tool name offered to the model, e.g. `files_`. */
  prefix?: string;
  /**
   * Timeout of listing and of each call, in milliseconds. Default 30 000. Every call asks the server for
   * progress, and each progress notification restarts the clock (there is no overall limit: the run's
   * abort ends a call).
   */
  timeoutMs?: number;
  /** Called with each progress notification a server's tool sends during a call (for example to show it to the person). */
  onProgress?: McpProgressListener;
  /** Timeout of starting the server and the MCP handshake (an `npx` server may download first). Default 60 000. */
  connectTimeoutMs?: number;
  /** Most HTTP sessions kept open at once (one per distinct header set); the least recently used is closed. Default 32. */
  maxSessions?: number;
  /** Client name announced to the server. Default `toolsmith`. */
  clientName?: string;
  /**
   * The protocol revision: `auto` (the default) asks the server and speaks the stateless 2026-07-28
   * when it can, else the 2025-era `initialize` handshake; `2025-11-25` or `2026-07-28` speaks only that era.
   */
  protocol?: McpProtocolChoice;
  /**
   * Answers a server's forms (elicitation, `input_required`) without asking the person, for example
   * `acceptFormDefaults`; returning `undefined` asks the person (the run's pause), as without it.
   */
  onElicitation?: McpElicitationHandler;
  /**
   * Offer the model two more tools when the server declares resources: `<prefix>list_resources` (its
   * resources and resource templates) and `<prefix>read_resource` (one resource by URI: text as text,
   * bytes as files of the result, so an image reaches the model as an image). A server tool of the same
   * name wins. Default `false`.
   */
  resources?: boolean;
  /**
   * For an HTTP server that requires OAuth: each user signs in once (through the run's
   * `toolsmith_request_credential` pause, see docs/auth.md) and their token is sent on their own session.
   * While the server refuses a user's token (or they have none), the toolset offers one tool,
   * `<prefix>sign_in`, instead of the server's. The client follows the MCP authorization spec (see docs/mcp.md, "OAuth").
   * With `clientCredentials` instead, the token is the app's (the client credentials grant): nobody signs in.
   * With `crossAppAccess`, each user's token comes from the ID token the app holds for them (SEP-990): nobody is asked.
   */
  oauth?: McpOAuthOptions | McpClientCredentialsOptions | McpCrossAppAccessOptions;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_SESSIONS = 32;
const INVALID_NAME_CHARACTERS = /[^a-zA-Z0-9_-]/g;

/**
 * A toolset whose tools are an MCP server's tools. The server is asked for its tools on every
 * request, so a changed tool list is seen; the session is opened on first use, reused, re-opened once
 * when the server dropped it, and ended by {@link McpToolset.close} (which `Runner.close()` calls).
 * A server that crashes, hangs or answers garbage gives the model an error response, not a failed run.
 *
 * @example
 * ```ts
 * const files = new McpToolset({
 *   transport: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
 *   toolFilter: ['read_file', 'list_directory'],
 * });
 * const agent = new LlmAgent({ name: 'assistant', model, tools: [files] });
 * ```
 */
export class McpToolset implements Toolset {
  private readonly sessions = new Map<string, McpConnection>();
  /** Each session's last listing, as tools (unfiltered); offered again if a later listing fails. */
  private readonly listed = new WeakMap<McpConnection, McpTool[]>();
  private readonly resourceToolsOf = new WeakMap<McpConnection, BaseTool[]>();
  /** The tools each session left out of its listings, already warned about. */
  private readonly leftOut = new WeakMap<McpConnection, Set<string>>();
  /** The MCP authorization spec's discovery and registration (OAuth without a fixed `authConfig`). */
  private readonly authorization?: McpAuthorization;
  private readonly onAuthChallenge?: McpAuthChallengeHandler;
  /** The app's token (OAuth client credentials), shared by every user and session. */
  private readonly appAuth?: McpClientCredentialsProvider;
  /** Each user's token by cross-app access (SEP-990). */
  private readonly crossApp?: McpCrossAppAccess;

  constructor(private readonly options: McpToolsetOptions) {
    checkTransport(options.transport);
    if (options.protocol !== undefined && !['auto', '2025-11-25', '2026-07-28'].includes(options.protocol)) {
      throw new ToolsmithError('INVALID_MCP_TRANSPORT', `McpToolset: "protocol" must be "auto", "2025-11-25" or "2026-07-28"; got ${JSON.stringify(options.protocol)}.`);
    }
    if (options.oauth && 'command' in options.transport) {
      throw new ToolsmithError('INVALID_MCP_TRANSPORT', 'McpToolset: "oauth" needs an HTTP transport ({ url }); a stdio server takes no OAuth token.');
    }
    const app = options.oauth && 'clientCredentials' in options.oauth ? (options.oauth as McpClientCredentialsOptions) : undefined;
    if (app && 'url' in options.transport) {
      const url = new URL(options.transport.url);
      this.appAuth = new McpClientCredentialsProvider(url, app, `${url.origin}${url.pathname}`);
    }
    const crossApp = options.oauth && 'crossAppAccess' in options.oauth ? (options.oauth as McpCrossAppAccessOptions) : undefined;
    if (crossApp && 'url' in options.transport) {
      const url = new URL(options.transport.url);
      this.crossApp = new McpCrossAppAccess(url, crossApp, `${url.origin}${url.pathname}`);
    }
    const oauth = this.userOAuth;
    if (oauth && 'url' in options.transport) {
      this.onAuthChallenge = (challenge, context, afterAnswer) => this.challenged(challenge, context, afterAnswer);
      if (!oauth.authConfig) {
        if (!oauth.redirectUri || !URL.canParse(oauth.redirectUri)) {
          throw new ToolsmithError('INVALID_MCP_TRANSPORT', 'McpToolset: "oauth" needs "redirectUri" (where the authorization server sends the user back), or a fixed "authConfig".');
        }
        try {
          validateClientMetadataUrl(oauth.clientMetadataUrl);
        } catch (error) {
          throw new ToolsmithError('INVALID_MCP_TRANSPORT', `McpToolset: "oauth.clientMetadataUrl" must be an https URL with a path; got ${JSON.stringify(oauth.clientMetadataUrl)}.`, { cause: error });
        }
        const timeoutProblem = authRequestTimeoutProblem(oauth.requestTimeoutMs);
        if (timeoutProblem) throw new ToolsmithError('MCP_OAUTH_CONFIG_INVALID', `McpToolset: "oauth.requestTimeoutMs" ${timeoutProblem}.`);
        const url = new URL(options.transport.url);
        const label = `${url.origin}${url.pathname}`;
        this.authorization = new McpAuthorization(url, `mcp:${label}`, {
          redirectUri: oauth.redirectUri,
          clientName: options.clientName ?? 'toolsmith',
          requestTimeoutMs: oauth.requestTimeoutMs ?? DEFAULT_AUTH_REQUEST_TIMEOUT_MS,
          ...(oauth.client ? { client: oauth.client } : {}),
          ...(oauth.clientMetadataUrl ? { clientMetadataUrl: oauth.clientMetadataUrl } : {}),
        }, label);
      }
    }
  }

  /** The server's tools (filtered, prefixed) for this run; implements {@link Toolset.getTools}. */
  async getTools(context: ReadonlyContext): Promise<BaseTool[]> {
    const signIn = await this.signInTool(context);
    if (signIn) return [signIn];
    const connection = await this.connectionFor(context);
    let tools: McpTool[];
    try {
      tools = this.toTools(connection, (await connection.listTools()) as McpRemoteTool[]);
      this.listed.set(connection, tools);
    } catch (error) {
      // The server refused the user's token (or wants one): the sign-in tool asks for it.
      const challenge = this.onAuthChallenge ? authChallengeOf(error) : undefined;
      if (challenge) {
        const { config, reason } = await this.challenged(challenge, context, false);
        return [this.signIn(config, reason)];
      }
      // A server that went away after it was listed keeps its tools on offer: their calls then report
      // the failure to the model (and try to reconnect), instead of the whole run failing here.
      const previous = this.listed.get(connection);
      if (!previous) throw error;
      tools = previous;
    }
    const offered: BaseTool[] = await this.accepted(connection, tools, context);
    if (this.options.resources && (await connection.serverCapabilities()).resources) {
      const taken = new Set(offered.map((tool) => tool.name));
      for (const tool of this.resourceTools(connection)) if (!taken.has(tool.name)) offered.push(tool);
    }
    return offered;
  }

  /**
   * The server's resources and resource templates (all pages). `context` is the run's (in a tool or an
   * instruction function): it picks the session (headers, OAuth) and names the conversation to a
   * 2026-07-28 server; it is required when the headers are a function of it or with `oauth`.
   */
  async listResources(context?: ReadonlyContext): Promise<{ resources: McpResourceInfo[]; resourceTemplates: McpResourceTemplateInfo[] }> {
    const connection = await this.connectionFor(context, 'listResources');
    return connection.listResources(this.requestOptions(connection, context));
  }

  /** Reads one resource by URI (a listed one, or one a template matches): its contents, text or base64 bytes (`blob`). */
  async readResource(uri: string, context?: ReadonlyContext): Promise<McpResourceContents[]> {
    const connection = await this.connectionFor(context, 'readResource');
    return (await connection.readResource(uri, this.requestOptions(connection, context))) as McpResourceContents[];
  }

  /** The server's prompts (all pages). */
  async listPrompts(context?: ReadonlyContext): Promise<McpPromptInfo[]> {
    const connection = await this.connectionFor(context, 'listPrompts');
    return connection.listPrompts(this.requestOptions(connection, context));
  }

  /**
   * One of the server's prompts, filled in with `args`, as messages to send (for example as a run's
   * `newMessage`, or history). An unknown prompt or a missing required argument is the server's error
   * (`MCP_PROTOCOL_ERROR`, with its message).
   */
  async getPrompt(name: string, args: Record<string, string> = {}, context?: ReadonlyContext): Promise<McpPrompt> {
    const connection = await this.connectionFor(context, 'getPrompt');
    const result = await connection.getPrompt(name, args, this.requestOptions(connection, context));
    const prompt: McpPrompt = { messages: promptMessagesToContents(result.messages) };
    if (result.description !== undefined) prompt.description = result.description;
    return prompt;
  }

  /**
   * A server's prompt as an agent's `instruction`: fetched for each model request (with the run's
   * context), its messages' text joined by blank lines. `args` may be a function of the context. A prompt
   * with an image, audio or a binary resource cannot be an instruction (text only): the request fails
   * with `MCP_PROMPT_NOT_TEXT`; use {@link McpToolset.getPrompt} and send its messages instead.
   *
   * @example
   * ```ts
   * const agent = new LlmAgent({ name: 'reviewer', model, instruction: docs.promptInstruction('review', { language: 'ts' }), tools: [docs] });
   * ```
   */
  promptInstruction(name: string, args: Record<string, string> | ((context: ReadonlyContext) => Record<string, string>) = {}): (context: ReadonlyContext) => Promise<string> {
    return async (context) => {
      const prompt = await this.getPrompt(name, typeof args === 'function' ? args(context) : args, context);
      const texts = prompt.messages.flatMap((message) => message.parts.map((part) => part.text));
      if (texts.some((text) => text === undefined)) {
        throw new ToolsmithError('MCP_PROMPT_NOT_TEXT', `McpToolset: prompt "${name}" has a message that is not text (an image, audio or a binary resource), so it cannot be an instruction; use getPrompt() and send its messages.`);
      }
      return texts.join('\n\n');
    };
  }

  /** The server's suggestions for an argument of a prompt or a variable of a resource template, given what was typed (`value`) and the arguments already given. */
  async complete(target: McpCompletionTarget, argument: { name: string; value: string }, given?: Record<string, string>, context?: ReadonlyContext): Promise<McpCompletion> {
    const connection = await this.connectionFor(context, 'complete');
    const ref = 'prompt' in target ? { type: 'ref/prompt' as const, name: target.prompt } : { type: 'ref/resource' as const, uri: target.resourceTemplate };
    const completion = await connection.complete({ ref, argument, ...(given ? { context: { arguments: given } } : {}) }, this.requestOptions(connection, context));
    return { values: completion.values, ...(completion.total !== undefined ? { total: completion.total } : {}), ...(completion.hasMore !== undefined ? { hasMore: completion.hasMore } : {}) };
  }

  private requestOptions(connection: McpConnection, context: ReadonlyContext | undefined) {
    const signal = (context as { signal?: AbortSignal } | undefined)?.signal;
    return { ...(signal ? { signal } : {}), ...(context ? { sessionId: mcpClientSessionId(connection.identity, context) } : {}) };
  }

  /** The resource tools of one session, made once. */
  private resourceTools(connection: McpConnection): BaseTool[] {
    let tools = this.resourceToolsOf.get(connection);
    if (!tools) {
      const name = (base: string) => `${this.options.prefix ?? ''}${base}`.replace(INVALID_NAME_CHARACTERS, '_').slice(0, 64);
      tools = [new McpListResourcesTool(name('list_resources'), connection), new McpReadResourceTool(name('read_resource'), connection)];
      this.resourceToolsOf.set(connection, tools);
    }
    return tools;
  }

  /** Ends every open session (and stops stdio servers); implements {@link Toolset.close}. */
  async close(): Promise<void> {
    const connections = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  /** With a fixed `authConfig`: the sign-in tool while this user has no live token (the server is not asked). */
  private async signInTool(context: ReadonlyContext): Promise<BaseTool | undefined> {
    const oauth = this.userOAuth;
    if (!oauth?.authConfig) return undefined;
    const credential = await oauth.credentialService.loadCredential(this.credentialKey(context));
    if (credential?.accessToken && !isCredentialExpired(credential)) return undefined;
    return this.signIn(oauth.authConfig, 'legacy');
  }

  private signIn(config: AuthConfig, reason: McpSignInReason): McpSignInTool {
    const name = `${this.options.prefix ?? ''}sign_in`.replace(INVALID_NAME_CHARACTERS, '_').slice(0, 64);
    const transport = this.options.transport;
    return new McpSignInTool(name, 'url' in transport ? String(transport.url) : transport.command, config, reason);
  }

  /**
   * What to ask the user after the server refused a request: for a `401`, a sign-in (a token the server
   * refused is forgotten; an expired one may be refreshed); for `403 insufficient_scope`, a step-up to the
   * union of the granted and the required scopes. Throws `MCP_AUTHORIZATION_FAILED` when asking again
   * cannot help: the server still refuses right after the user answered, or wants no scope beyond the granted ones.
   */
  private async challenged(challenge: McpAuthChallenge, context: ReadonlyContext, afterAnswer: boolean): Promise<{ config: AuthConfig; reason: McpSignInReason }> {
    const oauth = this.userOAuth!;
    const key = this.credentialKey(context);
    const credential = await oauth.credentialService.loadCredential(key);
    const label = this.authorizationLabel();
    if (challenge.status === 401) {
      if (afterAnswer) throw new McpConnectionError('MCP_AUTHORIZATION_FAILED', label, 'the server refused the token the user just authorized');
      // A live token the server refuses (revoked) is forgotten; an expired one is kept for its refresh.
      if (credential?.accessToken && !isCredentialExpired(credential, Date.now(), 0)) await oauth.credentialService.deleteCredential(key);
      if (oauth.authConfig) return { config: oauth.authConfig, reason: 'legacy' };
      return { config: await this.authorization!.authConfig(challenge), reason: 'sign-in' };
    }
    const granted = credential?.scope;
    const wanted = computeScopeUnion(granted, challenge.scope);
    if (afterAnswer || oauth.authConfig || !isStrictScopeSuperset(wanted, granted)) {
      throw new McpConnectionError(
        'MCP_AUTHORIZATION_FAILED',
        label,
        `the server refuses the user's token for lack of scope ${JSON.stringify(challenge.scope ?? '')}, and authorizing again would not add any; the user is not asked again`,
      );
    }
    return { config: await this.authorization!.authConfig(challenge, wanted), reason: 'step-up' };
  }

  /** The per-user OAuth options (not the app's client credentials). */
  private get userOAuth(): McpOAuthOptions | undefined {
    const oauth = this.options.oauth;
    return oauth && !('clientCredentials' in oauth) && !('crossAppAccess' in oauth) ? (oauth as McpOAuthOptions) : undefined;
  }

  private authorizationLabel(): string {
    const url = new URL(String((this.options.transport as McpHttpTransportOptions).url));
    return `${url.origin}${url.pathname}`;
  }

  private credentialKey(context: ReadonlyContext): CredentialKey {
    const oauth = this.userOAuth!;
    return { appName: context.appName, userId: context.userId, authConfigId: oauth.authConfig ? authConfigId(oauth.authConfig) : this.authorization!.credentialName };
  }

  /** The tools `toolFilter` accepts; a filter function that throws (or rejects) is `MCP_TOOL_FILTER_FAILED`. */
  private async accepted(connection: McpConnection, tools: McpTool[], context: ReadonlyContext): Promise<McpTool[]> {
    const filter = this.options.toolFilter;
    if (filter === undefined) return tools.slice();
    if (typeof filter !== 'function') return tools.filter((tool) => filter.includes(tool.remote.name));
    const verdicts: unknown[] = [];
    try {
      for (const tool of tools) verdicts.push(filter(tool.remote, context));
      const settled = verdicts.some(isThenable) ? await Promise.all(verdicts) : verdicts;
      return tools.filter((_, index) => Boolean(settled[index]));
    } catch (error) {
      for (const verdict of verdicts) if (isThenable(verdict)) Promise.resolve(verdict).catch(() => undefined); // none left unhandled
      throw new McpConnectionError('MCP_TOOL_FILTER_FAILED', connection.label, `the toolFilter function failed, so none of the server's tools is offered: ${thrownMessage(error)}`, { cause: error });
    }
  }

  /** The run's headers from the `headers` function; one that throws (or rejects) is `MCP_HEADERS_FAILED`, and nothing is sent. */
  private async runHeaders(headers: (context: ReadonlyContext) => Record<string, string> | Promise<Record<string, string>>, context: ReadonlyContext): Promise<Record<string, string>> {
    try {
      return await headers(context);
    } catch (error) {
      throw new McpConnectionError('MCP_HEADERS_FAILED', this.authorizationLabel(), `the headers function failed, so nothing was sent to the server: ${thrownMessage(error)}`, { cause: error });
    }
  }

  /** Reuses the tool objects of an unchanged listing, so their compiled validators are reused too. */
  private toTools(connection: McpConnection, remoteTools: McpRemoteTool[]): McpTool[] {
    const previous = new Map((this.listed.get(connection) ?? []).map((tool) => [tool.remote.name, tool]));
    const prefix = this.options.prefix ?? '';
    // The model's name of each tool; two tools whose names become one (`a.b` and `a_b`, or cut at 64) do not
    // share it by the order of the listing: the one whose own name it is keeps it, the others are left out.
    const modelNames = remoteTools.map((remote) => `${prefix}${remote.name}`.replace(INVALID_NAME_CHARACTERS, '_').slice(0, 64));
    const holders = new Map<string, McpRemoteTool[]>();
    remoteTools.forEach((remote, index) => holders.set(modelNames[index], [...(holders.get(modelNames[index]) ?? []), remote]));
    const tools: McpTool[] = [];
    remoteTools.forEach((remote, index) => {
      const name = modelNames[index];
      if (name === REQUEST_CONFIRMATION || name === REQUEST_CREDENTIAL) {
        this.leaveOut(connection, remote, `its name "${name}" is reserved for the runner's pause requests, and a call of it would be taken for one`);
        return;
      }
      const sharing = holders.get(name)!;
      if (sharing.length > 1) {
        const own = sharing.filter((tool) => `${prefix}${tool.name}` === name);
        if (own.length !== 1 || own[0] !== remote) {
          const others = sharing.filter((tool) => tool !== remote).map((tool) => JSON.stringify(tool.name)).join(', ');
          const keeper = own.length === 1 ? `; ${JSON.stringify(own[0].name)}, whose own name it is, is offered` : '; none of them is offered';
          this.leaveOut(connection, remote, `its name for the model would be "${name}" (characters other than letters, digits, _ and - made _, cut at 64), as would that of ${others}${keeper}`);
          return;
        }
      }
      const known = previous.get(remote.name);
      if (known && JSON.stringify(known.remote) === JSON.stringify(remote)) {
        tools.push(known);
        return;
      }
      try {
        tools.push(new McpTool(remote, name, connection, this.userOAuth?.authConfig, this.options.onProgress, this.onAuthChallenge));
      } catch (error) {
        this.leaveOut(connection, remote, `its ${remote.outputSchema ? 'input or output' : 'input'} schema is not a valid JSON Schema: ${thrownMessage(error)}`);
      }
    });
    return tools;
  }

  /**
   * A server's tool that cannot be offered is left out of the listing (the rest are offered), with a
   * process warning `TOOLSMITH_MCP_TOOL_LEFT_OUT` naming the server, the tool and why; once per
   * connection and tool description, not on every listing.
   */
  private leaveOut(connection: McpConnection, remote: McpRemoteTool, why: string): void {
    let warned = this.leftOut.get(connection);
    if (!warned) this.leftOut.set(connection, (warned = new Set()));
    const key = JSON.stringify([remote.name, why]);
    if (warned.has(key)) return;
    warned.add(key);
    process.emitWarning(`MCP server ${connection.label}: tool ${JSON.stringify(remote.name)} is left out: ${why}.`, { code: 'TOOLSMITH_MCP_TOOL_LEFT_OUT' });
  }

  private async connectionFor(context: ReadonlyContext | undefined, method = 'getTools'): Promise<McpConnection> {
    const transport = this.options.transport;
    let key = '';
    let endpoint: Pick<McpConnectionOptions, 'label' | 'identity' | 'createTransport'>;
    if ('command' in transport) {
      endpoint = stdioTransport(transport);
    } else {
      if (!context && (typeof transport.headers === 'function' || this.userOAuth || this.crossApp)) {
        throw new ToolsmithError('MCP_CONTEXT_REQUIRED', `McpToolset.${method}: the headers (or the OAuth token) are the run's, so pass the run's context.`);
      }
      const headers = typeof transport.headers === 'function' ? await this.runHeaders(transport.headers, context!) : (transport.headers ?? {});
      key = JSON.stringify(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
      const oauth = this.userOAuth;
      // With OAuth each user has their own session, carrying their own token (the app's token: one for everybody).
      if (oauth || this.crossApp) key = JSON.stringify([key, context!.appName, context!.userId]);
      const authProvider = oauth ? new McpCredentialProvider(oauth.credentialService, this.credentialKey(context!)) : (this.crossApp?.forUser(context!) ?? this.appAuth);
      // The app modes step up on 403 insufficient_scope themselves; the per-user mode pauses for the user instead.
      const stepUp = authProvider instanceof McpGrantTokenProvider ? { fetch: (fetchImpl: typeof fetch) => authProvider.stepUpFetch(fetchImpl) } : {};
      endpoint = httpTransport({ url: new URL(transport.url), headers: { ...headers }, ...(authProvider ? { authProvider } : {}), ...stepUp });
    }

    const existing = this.sessions.get(key);
    if (existing) {
      // Re-insert to mark it most recently used.
      this.sessions.delete(key);
      this.sessions.set(key, existing);
      return existing;
    }
    const connection = new McpConnection({
      ...endpoint,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      connectTimeoutMs: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      clientName: this.options.clientName ?? 'toolsmith',
      clientVersion: '0.1.0',
      protocol: this.options.protocol ?? 'auto',
      ...(this.options.onElicitation ? { onElicitation: this.options.onElicitation } : {}),
    });
    this.sessions.set(key, connection);
    const maxSessions = this.options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    while (this.sessions.size > maxSessions) {
      const [oldestKey, oldest] = this.sessions.entries().next().value as [string, McpConnection];
      this.sessions.delete(oldestKey);
      void oldest.close();
    }
    return connection;
  }
}

/** Refuses a transport that cannot work, at construction rather than at the first request. */
function checkTransport(transport: McpToolsetOptions['transport']): void {
  const value = transport as Partial<McpStdioTransportOptions & McpHttpTransportOptions> | undefined;
  if (value && typeof value.command === 'string' && value.command.length > 0) return;
  if (value && value.url !== undefined && URL.canParse(String(value.url))) {
    const protocol = new URL(String(value.url)).protocol;
    if (protocol === 'http:' || protocol === 'https:') return;
  }
  throw new ToolsmithError(
    'INVALID_MCP_TRANSPORT',
    `McpToolset needs transport { command, args? } (stdio) or { url } (an http or https URL); got ${JSON.stringify(transport)}.`,
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
