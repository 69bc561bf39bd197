import { confirmationPendingFeedback } from '../errors/messages';
import { findPendingCalls } from '../confirmation/pending-calls';
import { isPauseRequestName } from '../confirmation/request-confirmation';
import type { Event } from '../events/event';
import type { Content, FunctionCall, FunctionResponse, Part } from '../model/content';

/**
 * The content of an event without the pause protocol: `toolsmith_request_confirmation` and
 * `toolsmith_request_credential` calls and
 * the client's answers to them are between the runner and the client, never shown to a model.
 * Returns the content itself when it has none, `undefined` when nothing else is left.
 */
export function withoutConfirmationParts(content: Content): Content | undefined {
  if (!hasConfirmationPart(content.parts)) return content;
  const parts = content.parts.filter((part) => !isConfirmationPart(part));
  return parts.length > 0 ? { ...content, parts } : undefined;
}

/**
 * Puts the responses to each model turn's calls into ONE content right after it, in call order,
 * however many events they arrived in (calls that ran at once, then calls that ran after a
 * confirmation, then a long-running call's updates: the latest response of a call wins). A call still
 * waiting for the user's confirmation (the user moved on without answering) gets an error response
 * saying so. Other contents of the stretch keep their order after it. Returns `contents` itself when no
 * turn needed merging.
 */
export function mergeTurnResponses(contents: Content[], events: readonly Event[], hadConfirmations: boolean): Content[] {
  // The usual history needs no merging: `contents` is returned as it is, and a copy is made only from
  // the first turn that does need it.
  let out: Content[] | undefined;
  let waiting: ReadonlySet<string> | undefined;
  let index = 0;
  while (index < contents.length) {
    const content = contents[index++];
    out?.push(content);
    if (content.role !== 'model' || !hasFunctionCall(content)) continue;
    // The usual history (one content answering every call, in order, then the model's next turn) is kept
    // as it is, with no list of the calls made (this runs for every model turn of every request).
    if (answersEveryCallInOrder(contents[index], content) && (index + 1 === contents.length || contents[index + 1].role === 'model')) {
      out?.push(contents[index]);
      index++;
      continue;
    }
    out ??= contents.slice(0, index);
    waiting ??= hadConfirmations ? waitingCallIds(events) : NONE_WAITING;
    const calls = functionCallsOf(content);
    const ids = new Set(calls.map((call) => call.id));
    const responses = new Map<string, FunctionResponse>();
    const gathered: Content[] = [];
    const rest: Content[] = [];
    for (; index < contents.length && contents[index].role !== 'model'; index++) {
      const next = contents[index];
      if (next.parts.length > 0 && next.parts.every((p) => p.functionResponse && ids.has(p.functionResponse.id))) {
        gathered.push(next);
        for (const part of next.parts) responses.set(part.functionResponse!.id, part.functionResponse!);
      } else rest.push(next);
    }
    const parts: Part[] = [];
    for (const call of calls) {
      const response = responses.get(call.id) ?? (waiting.has(call.id) ? waitingResponse(call) : undefined);
      if (response) parts.push({ functionResponse: response });
    }
    // The common case (one event answering every call, in order) keeps its content object as it is.
    if (gathered.length === 1 && sameParts(gathered[0].parts, parts)) out.push(gathered[0]);
    else if (parts.length > 0) out.push({ role: 'user', parts });
    out.push(...rest);
  }
  return out ?? contents;
}

const NONE_WAITING: ReadonlySet<string> = new Set();

/** The content's function calls, in order (a plain loop: this runs for every model turn of every request). */
function functionCallsOf(content: Content): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const part of content.parts) if (part.functionCall) calls.push(part.functionCall);
  return calls;
}

/** True when a part is a confirmation request or answer (a plain loop: this runs for every event of every request). */
function hasConfirmationPart(parts: readonly Part[]): boolean {
  for (let i = 0; i < parts.length; i++) if (isConfirmationPart(parts[i])) return true;
  return false;
}

function isConfirmationPart(part: Part): boolean {
  return isPauseRequestName(part.functionCall?.name) || isPauseRequestName(part.functionResponse?.name);
}

function waitingCallIds(events: readonly Event[]): Set<string> {
  const ids = new Set<string>();
  for (const record of findPendingCalls(events).confirmations.values()) ids.add(record.originalFunctionCall.id);
  return ids;
}

function waitingResponse(call: FunctionCall): FunctionResponse {
  return {
    id: call.id,
    name: call.name,
    response: {
      error: {
        code: 'CONFIRMATION_PENDING',
        message: confirmationPendingFeedback(),
      },
    },
    isError: true,
  };
}

/** True when the content has a function call. */
function hasFunctionCall(content: Content): boolean {
  for (const part of content.parts) if (part.functionCall) return true;
  return false;
}

/** True when `content` is exactly one function response per call of `model`, in call order, and no two calls share an id. */
function answersEveryCallInOrder(content: Content | undefined, model: Content): boolean {
  if (!content || content.role === 'model') return false;
  const parts = model.parts;
  let answered = 0;
  for (let p = 0; p < parts.length; p++) {
    const call = parts[p].functionCall;
    if (!call) continue;
    if (answered >= content.parts.length || content.parts[answered].functionResponse?.id !== call.id) return false;
    for (let q = 0; q < p; q++) if (parts[q].functionCall?.id === call.id) return false;
    answered++;
  }
  return answered === content.parts.length;
}

function sameParts(a: readonly Part[], b: readonly Part[]): boolean {
  return a.length === b.length && a.every((part, i) => part.functionResponse === b[i].functionResponse);
}
