// The JSON the dev server's HTTP API speaks (docs/devtools.md). Shared by the server and the page, so
// it imports nothing: the page is built for the browser, without Node or core's classes. Events and
// sessions are core's own JSON forms (`EventData`, `SessionData`), spelled out here for the browser.

/** One part of a message: text, a function call or a function response (other kinds pass through). */
export interface WirePart {
  text?: string;
  thought?: boolean;
  functionCall?: { id: string; name: string; args: Record<string, unknown> | string };
  functionResponse?: { id: string; name: string; response: Record<string, unknown>; isError?: boolean; willContinue?: boolean };
}

/** A message: core's `Content`. */
export interface WireContent {
  role: string;
  parts: WirePart[];
}

/** An event as stored and streamed: core's `EventData` (`Event.toJSON()`). */
export interface WireEvent {
  id: string;
  invocationId: string;
  author: string;
  branch?: string;
  content?: WireContent;
  actions: { stateDelta: Record<string, unknown>; [action: string]: unknown };
  longRunningToolIds?: string[];
  partial?: boolean;
  turnComplete?: boolean;
  errorCode?: string;
  errorMessage?: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** A confirmation request the session waits for (from core's `findPendingCalls`). */
export interface WirePendingConfirmation {
  /** The id to answer (`POST /api/sessions/:id/confirmations/:requestId`). */
  requestId: string;
  originalFunctionCall: { id: string; name: string; args: Record<string, unknown> | string };
  hint?: string;
  payload?: unknown;
  agentName: string;
}

/** A long-running call whose final response has not arrived. */
export interface WirePendingLongRunning {
  /** The call id to send updates for (`POST /api/sessions/:id/long-running/:callId`). */
  id: string;
  name: string;
  agentName: string;
}

/** What a session waits for. */
export interface WirePending {
  confirmations: WirePendingConfirmation[];
  longRunning: WirePendingLongRunning[];
}

/** `GET /api/sessions` item: a session without its events. */
export interface SessionSummary {
  id: string;
  lastUpdateTime: number;
  state: Record<string, unknown>;
}

/** `GET /api/sessions/:id`: the whole session and what it waits for. */
export interface SessionDetail {
  id: string;
  userId: string;
  state: Record<string, unknown>;
  events: WireEvent[];
  lastUpdateTime: number;
  pending: WirePending;
}

/** Where sessions are kept: the embedded durable store, memory, or the store of an exported Runner. */
export interface SessionStoreInfo {
  kind: 'embedded' | 'memory' | 'runner';
  /** A sentence for people, e.g. `embedded PostgreSQL (PGlite) in /app/.toolsmith/sessions`. */
  description: string;
  durable: boolean;
}

/** `GET /api/info`. */
export interface AppInfo {
  appName: string;
  agentName: string;
  /** The user every session of the dev server belongs to. */
  userId: string;
  /** `provider/model` of the root agent, when it is an LLM agent. */
  model?: string;
  store: SessionStoreInfo;
}

/** `GET /api/tools` item. */
export interface ToolInfo {
  name: string;
  description: string;
  /** The tool's canonical JSON Schema for its arguments. */
  parameters: Record<string, unknown>;
  responseSchema?: Record<string, unknown>;
  isLongRunning: boolean;
  /** True when some calls need a confirmation (`requireConfirmation` is set). */
  requiresConfirmation: boolean;
  /** The agents that offer it. */
  agents: string[];
}

/** `POST /api/tools/:name/run` body. */
export interface ToolRunRequest {
  /** The arguments, as an object or as the raw JSON text a model would send. */
  args: Record<string, unknown> | string;
  /** Run with this session's state (read only: the call's state delta is reported, not stored). */
  sessionId?: string;
  /** Run as if the user approved a confirmation (`ctx.toolConfirmation`), with this payload. */
  confirmation?: { confirmed: boolean; payload?: unknown };
}

/** `POST /api/tools/:name/run` response: what the model would get, and what the call did. */
export interface ToolRunResult {
  response: Record<string, unknown>;
  isError: boolean;
  /** The error code when the call failed (`INVALID_ARGUMENTS`, `TOOL_NOT_FOUND`, …). */
  errorCode?: string;
  stateDelta: Record<string, unknown>;
  /** The call did not run: it needs a confirmation (send `confirmation` to run it as approved). */
  confirmationRequested: boolean;
  durationMs: number;
}

/** `POST /api/sessions/:id/confirmations/:requestId` body. */
export interface ConfirmationAnswerRequest {
  confirmed: boolean;
  payload?: unknown;
}

/** `POST /api/sessions/:id/long-running/:callId` body. */
export interface LongRunningUpdateRequest {
  response: Record<string, unknown>;
  /** True for an intermediate update: the call stays pending. */
  willContinue?: boolean;
}

/** `POST /api/sessions/:id/run` body: text, or a whole message (e.g. several function responses). */
export type RunRequest = { text: string } | { message: WireContent };

/** The last SSE message of a run (`event: end`): what the session waits for now. */
export interface RunEnd {
  pending: WirePending;
}

/** An API error body (any 4xx/5xx, and an SSE `event: error`). */
export interface ApiErrorBody {
  error: { code: string; message: string };
}
