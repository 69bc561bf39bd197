import type { Content, Part } from '../model/content';

// Messages in the shape of the GenAI conventions' `gen_ai.input.messages` / `gen_ai.output.messages`
// (role + typed parts), recorded only when the user opts in to content. Binary data and provider blocks
// are named, not copied: a span attribute is no place for an image.

/** One part in the GenAI conventions' message shape. */
type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }
  | { type: 'blob'; mime_type: string }
  | { type: 'provider_data'; provider: string };

/** The request's contents as `gen_ai.input.messages` JSON. */
export function inputMessagesJson(contents: readonly Content[]): string {
  return JSON.stringify(contents.map((content) => message(content)));
}

/** The model's complete response, its content and finish reason, as `gen_ai.output.messages` JSON. */
export function outputMessagesJson(content: Content | undefined, finishReason: string | undefined): string {
  if (!content) return '[]';
  return JSON.stringify([{ ...message(content), ...(finishReason ? { finish_reason: finishReason } : {}) }]);
}

/** The system instruction as `gen_ai.system_instructions` JSON. */
export function systemInstructionsJson(text: string): string {
  return JSON.stringify([{ type: 'text', content: text }]);
}

function message(content: Content): { role: string; parts: GenAiPart[] } {
  const parts = content.parts.map(part);
  // Function responses travel in user-role contents; the conventions give them the `tool` role.
  const role = content.role === 'model' ? 'assistant' : parts.length > 0 && parts.every((p) => p.type === 'tool_call_response') ? 'tool' : 'user';
  return { role, parts };
}

function part(p: Part): GenAiPart {
  if (p.functionCall) return { type: 'tool_call', id: p.functionCall.id, name: p.functionCall.name, arguments: p.functionCall.args };
  if (p.functionResponse) return { type: 'tool_call_response', id: p.functionResponse.id, response: p.functionResponse.response };
  if (p.inlineData) return { type: 'blob', mime_type: p.inlineData.mimeType };
  if (p.providerData) return { type: 'provider_data', provider: p.providerData.provider };
  return { type: p.thought ? 'reasoning' : 'text', content: p.text ?? '' };
}
