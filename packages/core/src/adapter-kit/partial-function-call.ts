import type { LlmResponse } from '../model/llm-response';

/**
 * The partial response an adapter yields while a call's arguments stream in: one
 * `partialFunctionCall` part with the call's id and name, the argument text so far and the piece just
 * received. `id` must be the id the finished call gets in the complete response.
 */
export function partialFunctionCallResponse(id: string, name: string, argsText: string, argsDelta: string): LlmResponse {
  return { partial: true, content: { role: 'model', parts: [{ partialFunctionCall: { id, name, argsText, argsDelta } }] } };
}
