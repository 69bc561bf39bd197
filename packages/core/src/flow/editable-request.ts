import type { LlmRequest } from '../model/llm-request';

/**
 * A copy of `request` that may be edited freely: its conversation, tool declarations, provider tools,
 * generation config and response schema are its own, so an edit reaches neither the session's events
 * (stored or already yielded), nor the tools' cached declarations (which other requests and argument
 * validation read), nor the agent's config and output schema. What tools' `processRequest` hooks get
 * (request-builder.ts) and what model callbacks get (model-call.ts), made once per model call and only
 * when one of them is there: the usual request is sent as built, uncopied.
 */
export function editableRequest(request: LlmRequest): LlmRequest {
  const copy: LlmRequest = { ...request, contents: copyData(request.contents, 0), tools: copyData(request.tools, 0) };
  if (request.providerTools) copy.providerTools = copyData(request.providerTools, 0);
  if (request.config) copy.config = copyData(request.config, 0);
  if (request.responseSchema) copy.responseSchema = copyData(request.responseSchema, 0);
  if (request.toolChoice && typeof request.toolChoice === 'object') copy.toolChoice = { ...request.toolChoice };
  return copy;
}

/** Past this depth a value is left to `structuredClone` (a cycle, or nesting deep enough to matter for the stack). */
const MAX_WALKED_DEPTH = 64;

/**
 * A deep copy of `value` that shares no object with it, equal to what `structuredClone` makes of it
 * for plain data: a walk that copies arrays and plain objects itself (a conversation and schemas are
 * plain JSON, and the walk copies them several times faster than `structuredClone`), and leaves
 * anything else (a `Date`, a class instance) and whatever lies deeper than {@link MAX_WALKED_DEPTH} to
 * `structuredClone` (so a cycle is unrolled that deep, then copied as a cycle). Members whose value is
 * `undefined` are kept; a function is kept as it is (`structuredClone` refuses one); an own
 * `__proto__` key stays a key, never the copy's prototype.
 *
 * Not `validation/json-copy.ts`'s walker: that one copies what JSON carries and refuses the rest (a
 * `Date`, a function, a cycle or deep nesting is a breach; an `undefined` member is left out, `-0` becomes
 * `0`), while a request's copy must keep all of it as `structuredClone` would (editable-request.test.ts).
 */
function copyData<T>(value: T, depth: number): T {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_WALKED_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = copyData(value[i] as unknown, depth + 1);
    return items as T;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const members: Record<string, unknown> = {};
  for (const name in value) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
    const member = copyData((value as Record<string, unknown>)[name], depth + 1);
    if (name === '__proto__') Object.defineProperty(members, name, { value: member, enumerable: true, writable: true, configurable: true });
    else members[name] = member;
  }
  return members as T;
}
