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
  const copy: LlmRequest = { ...request, contents: structuredClone(request.contents), tools: structuredClone(request.tools) };
  if (request.providerTools) copy.providerTools = structuredClone(request.providerTools);
  if (request.config) copy.config = structuredClone(request.config);
  if (request.responseSchema) copy.responseSchema = structuredClone(request.responseSchema);
  if (request.toolChoice && typeof request.toolChoice === 'object') copy.toolChoice = { ...request.toolChoice };
  return copy;
}
