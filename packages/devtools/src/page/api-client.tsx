// The page's calls to the dev server's API (docs/devtools.md). Runs are POST requests answered with
// Server-Sent Events, read from the fetch body (EventSource can only GET).
import type {
  ApiErrorBody,
  AppInfo,
  RunEnd,
  SessionDetail,
  SessionSummary,
  ToolInfo,
  ToolRunRequest,
  ToolRunResult,
  WireEvent,
} from '../protocol/api-types';

/** An API error, with the server's code. */
export class ApiCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const data = (await response.json()) as T | ApiErrorBody;
  if (!response.ok) {
    const { error } = data as ApiErrorBody;
    throw new ApiCallError(error.code, error.message);
  }
  return data as T;
}

/** What a streamed run reports, as it happens. */
export interface RunListener {
  onEvent(event: WireEvent): void;
  onEnd(end: RunEnd): void;
  onError(error: ApiCallError): void;
}

/** POSTs and reads the SSE answer to its end, calling the listener for each message. */
async function stream(path: string, body: unknown, listener: RunListener): Promise<void> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok || !response.body) {
    const { error } = (await response.json()) as ApiErrorBody;
    listener.onError(new ApiCallError(error.code, error.message));
    return;
  }
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
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
      if (name === 'event') listener.onEvent(data as WireEvent);
      else if (name === 'end') listener.onEnd(data as RunEnd);
      else if (name === 'error') {
        const { error } = data as ApiErrorBody;
        listener.onError(new ApiCallError(error.code, error.message));
      }
    }
  }
}

const session = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/** The dev server's API, as the page uses it. */
export const api = {
  info: () => call<AppInfo>('GET', '/api/info'),
  listSessions: () => call<SessionSummary[]>('GET', '/api/sessions'),
  createSession: () => call<SessionDetail>('POST', '/api/sessions', {}),
  getSession: (id: string) => call<SessionDetail>('GET', session(id)),
  deleteSession: (id: string) => call<void>('DELETE', session(id)),
  listTools: () => call<ToolInfo[]>('GET', '/api/tools'),
  runTool: (name: string, request: ToolRunRequest) => call<ToolRunResult>('POST', `/api/tools/${encodeURIComponent(name)}/run`, request),
  run: (id: string, text: string, listener: RunListener) => stream(`${session(id)}/run`, { text }, listener),
  answerConfirmation: (id: string, requestId: string, answer: { confirmed: boolean; payload?: unknown }, listener: RunListener) =>
    stream(`${session(id)}/confirmations/${encodeURIComponent(requestId)}`, answer, listener),
  updateLongRunning: (id: string, callId: string, update: { response: Record<string, unknown>; willContinue: boolean }, listener: RunListener) =>
    stream(`${session(id)}/long-running/${encodeURIComponent(callId)}`, update, listener),
};
