import type { LlmRequest } from '../model/llm-request';

/**
 * A copy of `request` that a model callback may edit freely: its conversation, tool declarations,
 * provider tools, generation config and response schema are its own, so an edit reaches neither the
 * session's events (stored or already yielded), nor the tools' cached declarations (which other
 * requests and argument validation read), nor the agent's output schema. Made only when a callback
 * that gets the request is registered: the usual request is sent as built, uncopied.
 */
export function editableRequest(request: LlmRequest): LlmRequest {
  const copy = requestWithOwnTools(request);
  copy.contents = structuredClone(request.contents);
  return copy;
}

/**
 * A copy of `request` whose parts that outlive it are its own: tool declarations, provider tools,
 * generation config and response schema (the tools' cached declarations, which other requests and
 * argument validation read, and the agent's config and output schema). The conversation is the
 * request's. What tools' `processRequest` hooks get, made only when one of the offered tools has one.
 */
export function requestWithOwnTools(request: LlmRequest): LlmRequest {
  const copy: LlmRequest = { ...request, tools: structuredClone(request.tools) };
  if (request.providerTools) copy.providerTools = structuredClone(request.providerTools);
  if (request.config) copy.config = structuredClone(request.config);
  if (request.responseSchema) copy.responseSchema = structuredClone(request.responseSchema);
  if (request.toolChoice && typeof request.toolChoice === 'object') copy.toolChoice = { ...request.toolChoice };
  return copy;
}
