import type Anthropic from '@anthropic-ai/sdk';
import type { Content, FunctionCall, InlineData, Part } from '@toolsmith/core';
import { argsAsObject, pairToolResults, ownThoughtSignature, providerDataOf, unsupportedInlineDataNote, unsupportedToolFileNote } from '@toolsmith/core/adapter-kit';
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
    const { id, response, isError, parts } = part.functionResponse;
    const text = JSON.stringify(response);
    // Files go in the result itself, as image and document blocks after the JSON.
    const content = parts?.length ? [{ type: 'text' as const, text }, ...parts.map((file, index) => toolResultFile(file.inlineData, index))] : text;
    const block: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: id, content };
    if (isError) block.is_error = true;
    return [block];
  }
  if (part.inlineData) return [toMediaBlock(part.inlineData)];
  if (part.providerData) {
    // Anthropic's own blocks go back exactly as received; another provider's content means nothing here.
    const block = providerDataOf(part, ANTHROPIC_PROVIDER);
    return block && role === 'assistant' ? [block as unknown as ContentBlockParam] : [];
  }
  if (part.thought) {
    // Thinking blocks must go back exactly as received (with their signature) when tools are used
    // with extended thinking; a thought without a signature (or with another provider's) cannot be sent back at all.
    const signature = ownThoughtSignature(part, ANTHROPIC_PROVIDER);
    return role === 'assistant' && signature !== undefined ? [{ type: 'thinking', thinking: part.text ?? '', signature }] : [];
  }
  // The API rejects empty text blocks.
  if (part.text) return [{ type: 'text', text: part.text }];
  return [];
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

function toToolUse(call: FunctionCall): Anthropic.ToolUseBlockParam {
  // `tool_use.input` must be an object, also for arguments the model sent malformed.
  return { type: 'tool_use', id: call.id, name: call.name, input: argsAsObject(call.args) };
}

/**
 * A message's inline data: JPEG, PNG, GIF and WebP images and PDF documents (media types compared without
 * case, as they are case-insensitive); any other type as a text note saying it was left out, so the
 * conversation, which holds it on every later turn, can still be sent.
 */
function toMediaBlock(inlineData: InlineData): ContentBlockParam {
  const { data } = inlineData;
  const mimeType = inlineData.mimeType.toLowerCase();
  if (mimeType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } };
  }
  const mediaType = IMAGE_TYPES.find((type) => type === mimeType);
  if (mediaType) return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
  return { type: 'text', text: unsupportedInlineDataNote(inlineData, 'Anthropic') };
}

type ToolResultContent = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>[number];

/**
 * A tool's file inside its `tool_result`: JPEG, PNG, GIF and WebP as `image` blocks, PDF and plain text
 * as `document` blocks (titled with the file's name); any other type as a text note saying it was left out.
 */
function toolResultFile(file: InlineData, index: number): ToolResultContent {
  const title = file.displayName ? { title: file.displayName } : {};
  if (file.mimeType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: file.data }, ...title };
  if (file.mimeType === 'text/plain') return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: Buffer.from(file.data, 'base64').toString('utf8') }, ...title };
  const mediaType = IMAGE_TYPES.find((type) => type === file.mimeType);
  if (mediaType) return { type: 'image', source: { type: 'base64', media_type: mediaType, data: file.data } };
  return { type: 'text', text: unsupportedToolFileNote(file, index, 'Anthropic') };
}

function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  return results.length === 0 ? blocks : [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}
