// The page's calls to the dev server's API (docs/devtools.md). Each carries the launch token as
// `Authorization: Bearer …`. Runs are POST requests answered with Server-Sent Events, read from the fetch
// body (EventSource can only GET, and cannot send the header).
import type {
  ApiErrorBody,
  AppInfo,
  ConfirmationAnswerRequest,
  EvalCaseSaved,
  EvalsInfo,
  LongRunningUpdateRequest,
  RunEnd,
  SessionDetail,
  SessionSummary,
  ToolInfo,
  ToolRunRequest,
  ToolRunResult,
  WireEvalReport,
  WireEvent,
  WireGrant,
  WireInspection,
} from '../protocol/api-types';

/** An API error, with the server's code (or the page's own: `SERVER_UNREACHABLE`, `STOPPED`, `HTTP_ERROR`). */
export class ApiCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** `CODE: message`, as the page shows it. */
  override toString(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** What the page shows for a failure: `CODE: message` for the API's typed errors, else the message. */
export function describeError(error: unknown): string {
  return error instanceof ApiCallError ? error.toString() : error instanceof Error ? error.message : String(error);
}

const TOKEN_KEY = 'toolsmith-dev-token';

/**
 * The launch token: `toolsmith web` opens `/#token=…`; the page keeps it in this tab's sessionStorage
 * (a reload keeps working) and takes it out of the address bar. The fragment is never sent to a server.
 */
function launchToken(): string {
  const match = /^#token=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}
const token = launchToken();

/** fetch with the token; a network failure or a stop becomes an {@link ApiCallError} that says so. */
async function send(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw failure(error, signal);
  }
}

function failure(error: unknown, signal: AbortSignal | undefined): ApiCallError {
  if (signal?.aborted) return new ApiCallError('STOPPED', 'Stopped: the request was cancelled, and the server aborted the run.');
  if (error instanceof ApiCallError) return error;
  return new ApiCallError('SERVER_UNREACHABLE', `The dev server cannot be reached (is toolsmith web still running?): ${error instanceof Error ? error.message : String(error)}`);
}

/** The server's typed error from a failed response (`{ error: { code, message } }`), or the HTTP status. */
async function errorOf(response: Response): Promise<ApiCallError> {
  try {
    const { error } = (await response.json()) as ApiErrorBody;
    if (typeof error?.code === 'string' && typeof error.message === 'string') return new ApiCallError(error.code, error.message);
  } catch {
    // not JSON: fall through to the status
  }
  return new ApiCallError('HTTP_ERROR', `The dev server answered ${response.status} ${response.statusText}.`);
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await send(method, path, body, signal);
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  try {
    return (await response.json()) as T;
  } catch (error) {
    throw failure(error, signal);
  }
}

/** What a streamed run reports, as it happens. */
export interface RunListener {
  onEvent(event: WireEvent): void;
  onEnd(end: RunEnd): void;
  onError(error: ApiCallError): void;
}

/**
 * A field of one SSE message, read line by line as SSE splits lines (on `\n` only): a regular expression's `.` and
 * `$` would also stop at U+2028 and U+2029, which JSON may hold raw.
 */
function sseField(block: string, field: string): string | undefined {
  const prefix = `${field}: `;
  for (const line of block.split('\n')) if (line.startsWith(prefix)) return line.slice(prefix.length);
  return undefined;
}

/** POSTs and reads the SSE answer to its end, calling the listener for each message; `signal` stops it (the server then aborts the run). */
async function stream(path: string, body: unknown, listener: RunListener, signal?: AbortSignal): Promise<void> {
  try {
    const response = await send('POST', path, body, signal);
    if (!response.ok || !response.body) throw await errorOf(response);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = sseField(block, 'event');
        const data = JSON.parse(sseField(block, 'data') ?? 'null') as unknown;
        if (name === 'event') listener.onEvent(data as WireEvent);
        else if (name === 'end') listener.onEnd(data as RunEnd);
        else if (name === 'error') {
          const { error } = data as ApiErrorBody;
          listener.onError(new ApiCallError(error.code, error.message));
        }
      }
    }
  } catch (error) {
    listener.onError(failure(error, signal));
  }
}

const session = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/** The dev server's API, as the page uses it. */
export const api = {
  info: () => call<AppInfo>('GET', '/api/info'),
  listSessions: (search = '') => call<SessionSummary[]>('GET', `/api/sessions${search.trim() ? `?q=${encodeURIComponent(search.trim())}` : ''}`),
  inspect: (id: string) => call<WireInspection>('GET', `${session(id)}/inspector`),
  createSession: () => call<SessionDetail>('POST', '/api/sessions', {}),
  getSession: (id: string) => call<SessionDetail>('GET', session(id)),
  deleteSession: (id: string) => call<void>('DELETE', session(id)),
  listTools: () => call<ToolInfo[]>('GET', '/api/tools'),
  listGrants: () => call<WireGrant[]>('GET', '/api/grants'),
  revokeGrant: (grantId: string) => call<void>('DELETE', `/api/grants/${encodeURIComponent(grantId)}`),
  runTool: (name: string, request: ToolRunRequest, signal?: AbortSignal) => call<ToolRunResult>('POST', `/api/tools/${encodeURIComponent(name)}/run`, request, signal),
  run: (id: string, text: string, listener: RunListener, signal?: AbortSignal) => stream(`${session(id)}/run`, { text }, listener, signal),
  answerConfirmation: (id: string, requestId: string, answer: ConfirmationAnswerRequest, listener: RunListener, signal?: AbortSignal) =>
    stream(`${session(id)}/confirmations/${encodeURIComponent(requestId)}`, answer, listener, signal),
  saveEvalCase: (id: string) => call<EvalCaseSaved>('POST', `${session(id)}/eval-case`, {}),
  evals: () => call<EvalsInfo>('GET', '/api/evals'),
  runEvals: (signal?: AbortSignal) => call<WireEvalReport>('POST', '/api/evals/run', {}, signal),
  updateLongRunning: (id: string, callId: string, update: LongRunningUpdateRequest, listener: RunListener, signal?: AbortSignal) =>
    stream(`${session(id)}/long-running/${encodeURIComponent(callId)}`, update, listener, signal),
};
