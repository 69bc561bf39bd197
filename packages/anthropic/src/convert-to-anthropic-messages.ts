import type Anthropic from '@anthropic-ai/sdk';
import { type Content, type FunctionCall, type Part, ProviderError } from '@toolsmith/core';
import { argsAsObject, pairToolResults, providerDataOf } from '@toolsmith/core/adapter-kit';
import { ANTHROPIC_PROVIDER } from './provider-tool';

type ContentBlockParam = Anthropic.ContentBlockParam;

/** What {@link convertToAnthropicMessages} produces: the `system` and `messages` request fields. */
export interface AnthropicPrompt {
  system?: string;
  messages: Array<Anthropic.MessageParam & { role: 'user' | 'assistant'; content: ContentBlockParam[] }>;
}

/**
 * Converts the neutral conversation into Messages API input. The API is strict about shape, so this
 * puts the system instruction in `system`, pairs every `tool_use` with exactly one `tool_result`
 * (core's `pairToolResults`), merges consecutive messages of the same role into one, and moves
 * `tool_result` blocks to the front of their user message (the API rejects a user turn that answers
 * tool calls with anything before the results).
 */
export function convertToAnthropicMessages(contents: Content[], systemInstruction?: string): AnthropicPrompt {
  const messages: AnthropicPrompt['messages'] = [];
  for (const content of pairToolResults(contents)) {
    const role = content.role === 'model' ? 'assistant' : 'user';
    const blocks = content.parts.flatMap((part) => convertPart(part, role));
    if (blocks.length === 0) continue;
    const previous = messages[messages.length - 1];
    if (previous && previous.role === role) previous.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  for (const message of messages) {
    if (message.role === 'user') message.content = toolResultsFirst(message.content);
  }
  const prompt: AnthropicPrompt = { messages };
  if (systemInstruction) prompt.system = systemInstruction;
  return prompt;
}

function convertPart(part: Part, role: 'user' | 'assistant'): ContentBlockParam[] {
  if (part.functionCall) return [toToolUse(part.functionCall)];
  if (part.functionResponse) {
    const { id, response, isError } = part.functionResponse;
    const block: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: id, content: JSON.stringify(response) };
    if (isError) block.is_error = true;
    return [block];
  }
  if (part.inlineData) return [toMediaBlock(part.inlineData.mimeType, part.inlineData.data)];
  if (part.providerData) {
    // Anthropic's own blocks go back exactly as received; another provider's content means nothing here.
    const block = providerDataOf(part, ANTHROPIC_PROVIDER);
    return block && role === 'assistant' ? [block as unknown as ContentBlockParam] : [];
  }
  if (part.thought) {
    // Thinking blocks must go back exactly as received (with their signature) when tools are used
    // with extended thinking; a thought without a signature cannot be sent back at all.
    return role === 'assistant' && part.thoughtSignature !== undefined
      ? [{ type: 'thinking', thinking: part.text ?? '', signature: part.thoughtSignature }]
      : [];
  }
  // The API rejects empty text blocks.
  if (part.text) return [{ type: 'text', text: part.text }];
  return [];
}

function toToolUse(call: FunctionCall): Anthropic.ToolUseBlockParam {
  // `tool_use.input` must be an object, also for arguments the model sent malformed.
  return { type: 'tool_use', id: call.id, name: call.name, input: argsAsObject(call.args) };
}

function toMediaBlock(mimeType: string, data: string): ContentBlockParam {
  if (mimeType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } };
  }
  const imageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
  const mediaType = imageTypes.find((type) => type === mimeType);
  if (mediaType) return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
  throw new ProviderError(
    'BAD_REQUEST',
    `Anthropic cannot take inline data of type "${mimeType}"; send JPEG, PNG, GIF, WebP images or PDF documents.`,
    { provider: ANTHROPIC_PROVIDER },
  );
}

function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  return results.length === 0 ? blocks : [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}
