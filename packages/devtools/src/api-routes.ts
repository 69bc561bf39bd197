import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Content} from '@toolsmith/core';
import { ToolsmithError, reportableError, thrownMessage } from '@toolsmith/core';
import { type HttpGuard, HttpGuardError, checkMessageId, checkNewMessage, decodePathSegment, runIdProblem, unfitIdentifierCharacter } from '@toolsmith/core/internal';
import type { DevAgentHost} from './dev-agent-host';
import { pendingOf, toWireEvent } from './dev-agent-host';
import { DevApiError } from './dev-api-error';
import type { ApiErrorBody, ConfirmationAnswerRequest, LongRunningUpdateRequest, RunEnd, ToolRunRequest } from './protocol/api-types';
import { SseStream } from './sse-stream';

type Handler = (host: DevAgentHost, params: string[], request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** The guard of the server, for the handlers' bodies (set per request by {@link handleApiRequest}). */
const guards = new WeakMap<IncomingMessage, HttpGuard<true>>();

/** The request's body: JSON (415, 413 and 400 from the guard) and an object (`BAD_REQUEST`). */
async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  return checkObject(await guards.get(request)!.readJsonBody(request));
}

function checkObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DevApiError('BAD_REQUEST', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** Routes that read no body: one sent to them all the same is checked as any body is (devtools.md's table), then left unused. */
const READS_NO_BODY = new Set(['GET', 'DELETE']);

/** The body of a request whose route reads none (the API's GET and DELETE routes, the page's), checked as any body is, then dropped. */
export async function checkUnusedBody(guard: HttpGuard<true>, request: IncomingMessage): Promise<void> {
  guard.checkBodyType(request);
  const unused = await guard.readUnusedBody(request);
  if (unused !== undefined) checkObject(unused);
}

/** The API's routes, in the order they are tried; docs/devtools.md documents each. */
const ROUTES: Array<[method: string, path: RegExp, handler: Handler]> = [
  ['GET', /^\/api\/info$/, async (host, _, __, response) => json(response, 200, host.info())],
  ['GET', /^\/api\/sessions$/, async (host, _, request, response) => json(response, 200, await host.listSessions(searchOf(request)))],
  [
    'POST',
    /^\/api\/sessions$/,
    async (host, _, request, response) => {
      const { sessionId } = await readJsonBody(request);
      if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId === '')) throw badRequest('sessionId must be a non-empty string.');
      if (sessionId !== undefined) checkId('sessionId', sessionId);
      json(response, 201, await host.createSession(sessionId));
    },
  ],
  ['GET', /^\/api\/sessions\/([^/]+)\/inspector$/, async (host, [id], _, response) => json(response, 200, host.inspect(id))],
  ['GET', /^\/api\/sessions\/([^/]+)$/, async (host, [id], _, response) => json(response, 200, await host.getSession(id))],
  [
    'DELETE',
    /^\/api\/sessions\/([^/]+)$/,
    async (host, [id], _, response) => {
      await host.deleteSession(id);
      response.writeHead(204).end();
    },
  ],
  [
    'POST',
    /^\/api\/sessions\/([^/]+)\/run$/,
    async (host, [id], request, response) => {
      const body = await readJsonBody(request);
      const { messageId } = body;
      if (messageId !== undefined && (typeof messageId !== 'string' || messageId === '')) throw badRequest('messageId must be a non-empty string.');
      const badMessageId = messageId === undefined ? undefined : checkMessageId(messageId);
      if (badMessageId) throw badMessageId; // 400 INVALID_MESSAGE before anything streams, as for the message
      checkId('sessionId', id);
      await streamRun(host, id, messageOf(host, body), response, messageId);
    },
  ],
  [
    'POST',
    /^\/api\/sessions\/([^/]+)\/confirmations\/([^/]+)$/,
    async (host, [id, requestId], request, response) => {
      const message = await host.confirmationAnswer(id, requestId, (await readJsonBody(request)) as ConfirmationAnswerRequest);
      await streamRun(host, id, checkedAnswer(host, message), response);
    },
  ],
  [
    'POST',
    /^\/api\/sessions\/([^/]+)\/long-running\/([^/]+)$/,
    async (host, [id, callId], request, response) => {
      const { response: update, willContinue, question } = await readJsonBody(request);
      if (!isObject(update)) throw badRequest('response must be a JSON object (the update the model gets).');
      if (willContinue !== undefined && typeof willContinue !== 'boolean') throw badRequest('willContinue must be true or false.');
      // A question is checked by the runner: a bad one is the stream's one INVALID_FUNCTION_RESPONSE event, nothing stored.
      const message = await host.longRunningUpdate(id, callId, { response: update, willContinue: willContinue === true, ...(question !== undefined && { question: question as LongRunningUpdateRequest['question'] }) });
      await streamRun(host, id, checkedAnswer(host, message), response);
    },
  ],
  ['GET', /^\/api\/grants$/, async (host, _, __, response) => json(response, 200, await host.listGrants())],
  [
    'DELETE',
    /^\/api\/grants\/([^/]+)$/,
    async (host, [grantId], _, response) => {
      await host.revokeGrant(grantId);
      response.writeHead(204).end();
    },
  ],
  [
    'POST',
    /^\/api\/sessions\/([^/]+)\/eval-case$/,
    async (host, [id], request, response) => {
      const { caseId } = await readJsonBody(request);
      if (caseId !== undefined && (typeof caseId !== 'string' || caseId.trim() === '')) throw badRequest('caseId must be a non-empty string.');
      json(response, 201, await host.saveEvalCase(id, caseId));
    },
  ],
  ['GET', /^\/api\/evals$/, async (host, _, __, response) => json(response, 200, host.evals.info())],
  [
    'POST',
    /^\/api\/evals\/run$/,
    async (host, _, request, response) => {
      const { caseIds } = await readJsonBody(request);
      if (caseIds !== undefined && !(Array.isArray(caseIds) && caseIds.every((id) => typeof id === 'string'))) throw badRequest('caseIds must be an array of case ids.');
      if (Array.isArray(caseIds) && caseIds.length === 0) throw badRequest('caseIds is empty: name at least one case, or leave caseIds out to run them all.');
      // A client that goes away (Stop in the page) aborts the runs: the model call and the tools see it.
      const abort = new AbortController();
      response.on('close', () => {
        if (!response.writableFinished) abort.abort(new Error('The client closed the request.'));
      });
      json(response, 200, await host.evals.run(caseIds as string[] | undefined, abort.signal));
    },
  ],
  ['GET', /^\/api\/tools$/, async (host, _, __, response) => json(response, 200, await host.listTools())],
  [
    'POST',
    /^\/api\/tools\/([^/]+)\/run$/,
    async (host, [name], request, response) => {
      const toolRun = toolRunRequestOf(await readJsonBody(request));
      // Stop in the page (or any client that goes away) aborts the call: the tool sees ctx.signal abort.
      const abort = new AbortController();
      response.on('close', () => {
        if (!response.writableFinished) abort.abort(new Error('The client closed the request.'));
      });
      json(response, 200, await host.runTool(name, toolRun, abort.signal));
    },
  ],
];

/**
 * A path segment, decoded (400 `MALFORMED_URL` from the guard when it cannot be), and checked as a run checks its
 * ids (400 `BAD_REQUEST`): every segment the routes take names a session, a request, a call, a grant or a tool, none of
 * which can hold a control character or a lone surrogate; refused here, such an id never reaches a store (PostgreSQL
 * refuses NUL with its own error).
 */
function pathId(segment: string): string {
  const id = decodePathSegment(segment);
  // Characters only: a session stored before ids were limited to 256 characters can still be read and deleted
  // (the routes that create or run a session check the length, through checkId or the runner).
  const unfit = unfitIdentifierCharacter(id);
  if (unfit) throw badRequest(`The path segment has a ${unfit}.`);
  return id;
}

/** 400 `BAD_REQUEST` for an id no run could take (see runIdProblem). */
function checkId(field: string, id: string): void {
  const problem = runIdProblem(field, id);
  if (problem) throw badRequest(`The ${problem}.`);
}

/**
 * Answers a request under `/api/`: JSON for reads and writes, Server-Sent Events for runs. Errors are
 * `{ error: { code, message } }` with a 4xx status for the client's mistakes and 500 for the server's.
 */
export async function handleApiRequest(host: DevAgentHost, guard: HttpGuard<true>, request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  guards.set(request, guard);
  try {
    guard.checkBodyType(request);
    // Every segment is percent-encoding (MALFORMED_URL, 400), also one no route matches (`/api/%ZZ`).
    for (const segment of path.split('/')) decodePathSegment(segment);
    const allowed: string[] = [];
    for (const [method, pattern, handler] of ROUTES) {
      const match = pattern.exec(path);
      if (!match) continue;
      allowed.push(method);
      if (method !== request.method) continue;
      if (READS_NO_BODY.has(method)) await checkUnusedBody(guard, request);
      await handler(host, match.slice(1).map(pathId), request, response);
      return;
    }
    if (allowed.length > 0) guard.checkMethod(request, allowed, path);
    throw new DevApiError('NOT_FOUND', `No API route ${request.method} ${path}. See docs/devtools.md.`);
  } catch (error) {
    if (response.headersSent) return; // a stream reports its own errors
    sendError(response, error);
  }
}

/**
 * Answers an error as `{ error: { code, message } }`: the guard's refusals with their status and headers,
 * the API's own with theirs, other Toolsmith errors (the client's request was wrong) with 400, anything
 * else with 500 `INTERNAL_ERROR`.
 */
export function sendError(response: ServerResponse, error: unknown): void {
  if (error instanceof HttpGuardError) json(response, error.status, errorBody(error), error.headers);
  else if (error instanceof DevApiError) json(response, error.status, errorBody(error));
  else if (ToolsmithError.isInstance(error)) json(response, 400, errorBody(error));
  else json(response, 500, { error: { code: 'INTERNAL_ERROR', message: thrownMessage(error) } });
}

/**
 * Streams a run as SSE: `event: event` for each event (partial text included), then `event: end` with
 * what the session waits for. A client that disconnects aborts the run (its signal reaches the tools).
 */
async function streamRun(host: DevAgentHost, sessionId: string, message: Content, response: ServerResponse, messageId?: string): Promise<void> {
  const abort = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) abort.abort(new Error('The client closed the stream.'));
  });
  const stream = new SseStream(response);
  try {
    for await (const event of host.run(sessionId, message, abort.signal, messageId)) stream.send('event', toWireEvent(event));
    const end: RunEnd = { pending: pendingOf((await host.runner.sessionService.getSession(sessionKey(host, sessionId)))?.events ?? []) };
    stream.send('end', end);
  } catch (error) {
    stream.send('error', errorBody(ToolsmithError.isInstance(error) ? error : new ToolsmithError('INTERNAL_ERROR', String(error))));
  } finally {
    stream.end();
  }
}

function sessionKey(host: DevAgentHost, sessionId: string) {
  return { appName: host.runner.appName, userId: host.userId, sessionId };
}

/**
 * The user message of a run request, checked as the runner checks every new message (shape, and the
 * argument limits' size and depth): a refused one gets 400 `INVALID_MESSAGE` before anything is stored.
 */
/**
 * The message that carries a person's answer, checked as the runner checks a new message (its limits: depth, size):
 * what the runner would refuse is answered with its code and 400 before anything streams, as devtools.md promises.
 */
function checkedAnswer(host: DevAgentHost, message: Content): Content {
  const invalid = checkNewMessage(message, host.runner.argumentLimits);
  if (invalid) throw invalid;
  return message;
}

function messageOf(host: DevAgentHost, body: Record<string, unknown>): Content {
  let message: Content;
  if (body.text !== undefined && body.message !== undefined) throw badRequest('Send { "text": "…" } or { "message": { … } }, not both.');
  if (typeof body.text === 'string') {
    if (body.text.trim() === '') throw badRequest('text is empty.');
    message = { role: 'user', parts: [{ text: body.text }] };
  } else if (isObject(body.message) && Array.isArray(body.message.parts)) {
    message = body.message as unknown as Content;
  } else {
    throw badRequest('Send { "text": "…" } or { "message": { "role": "user", "parts": [ … ] } }.');
  }
  const invalid = checkNewMessage(message, host.runner.argumentLimits);
  if (invalid) throw invalid;
  return message;
}

/** `?q=` of a session list request: the text to search titles and ids for. */
function searchOf(request: IncomingMessage): string | undefined {
  return new URL(request.url ?? '/', 'http://localhost').searchParams.get('q') ?? undefined;
}

function toolRunRequestOf(body: Record<string, unknown>): ToolRunRequest {
  const { args, sessionId, confirmation } = body;
  if (!isObject(args) && typeof args !== 'string') throw badRequest('args must be a JSON object (or the JSON text a model would send).');
  if (sessionId !== undefined && typeof sessionId !== 'string') throw badRequest('sessionId must be a string.');
  if (sessionId) checkId('sessionId', sessionId);
  if (confirmation !== undefined && !(isObject(confirmation) && typeof confirmation.confirmed === 'boolean')) {
    throw badRequest('confirmation must be { "confirmed": true|false, "payload"?: … }.');
  }
  return {
    args,
    ...(sessionId ? { sessionId } : {}),
    ...(confirmation ? { confirmation: confirmation as unknown as ToolRunRequest['confirmation'] } : {}),
  } as ToolRunRequest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function badRequest(message: string): DevApiError {
  return new DevApiError('BAD_REQUEST', message);
}

function errorBody(error: ToolsmithError): ApiErrorBody {
  // Reported as it is only when it can be (see reportableError): a client never gets a code made of a secret.
  const reported = reportableError(error);
  return reported ? { error: { code: reported.code, message: reported.message } } : { error: { code: 'INTERNAL_ERROR', message: 'The request failed.' } };
}

function json(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
