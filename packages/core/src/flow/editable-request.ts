import type { LlmRequest } from '../model/llm-request';

/**
 * A copy of `request` that a model callback may edit freely: its conversation, tool declarations,
 * provider tools, generation config and response schema are its own, so an edit reaches neither the
 * session's events (stored or already yielded), nor the tools' cached declarations (which other
 * requests and argument validation read), nor the agent's output schema. Made only when a callback
 * that gets the request is registered: the usual request is sent as built, uncopied.
 */
export function editableRequest(request: LlmRequest): LlmRequest {
  const copy: LlmRequest = { ...request, contents: structuredClone(request.contents), tools: structuredClone(request.tools) };
  if (request.providerTools) copy.providerTools = structuredClone(request.providerTools);
  if (request.config) copy.config = structuredClone(request.config);
  if (request.responseSchema) copy.responseSchema = structuredClone(request.responseSchema);
  if (request.toolChoice && typeof request.toolChoice === 'object') copy.toolChoice = { ...request.toolChoice };
  return copy;
}
