import type Anthropic from '@anthropic-ai/sdk';
import type { Content, FunctionCall, InlineData, Part } from '@toolsmith/core';
import { argsAsObject, pairToolResults, ownThoughtSignature, providerDataOf, unsupportedInlineDataNote, unsupportedToolFileNote, utf8Text } from '@toolsmith/core/adapter-kit';
import { MAX_FULL_SIZE_IMAGES, imageRefusal } from './anthropic-image-limits';
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
 * tool calls with anything before the results). An image Anthropic would refuse goes as a note (see
 * anthropic-image-limits.ts): with more than 20 images in the request, one over 2000 pixels a side too.
 */
export function convertToAnthropicMessages(contents: Content[], systemInstruction?: string): AnthropicPrompt {
  const messages: AnthropicPrompt['messages'] = [];
  const paired = pairToolResults(contents);
  const manyImages = imageCount(paired) > MAX_FULL_SIZE_IMAGES;
  for (const content of paired) {
    const role = content.role === 'model' ? 'assistant' : 'user';
    const blocks = content.parts.flatMap((part) => convertPart(part, role, manyImages));
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

/**
 * How many image blocks the request holds by the limits on one image (size, bytes): a file of an image type
 * in a user's message or in a tool's result (as {@link convertPart} sends them) that Anthropic takes.
 */
function imageCount(contents: readonly Content[]): number {
  let count = 0;
  for (const content of contents) {
    for (const part of content.parts) {
      if (part.functionCall) continue;
      if (part.functionResponse) {
        for (const file of part.functionResponse.parts ?? []) if (isSentImage(file.inlineData)) count++;
      } else if (part.inlineData && content.role !== 'model' && isSentImage(part.inlineData)) count++;
    }
  }
  return count;
}

const isSentImage = (file: InlineData): boolean => imageType(file) !== undefined && imageRefusal(file, false) === undefined;

function convertPart(part: Part, role: 'user' | 'assistant', manyImages: boolean): ContentBlockParam[] {
  if (part.functionCall) return [toToolUse(part.functionCall)];
  if (part.functionResponse) {
    const { id, response, isError, parts } = part.functionResponse;
    const text = JSON.stringify(response);
    // Files go in the result itself, as image and document blocks after the JSON.
    const content = parts?.length ? [{ type: 'text' as const, text }, ...parts.map((file, index) => toolResultFile(file.inlineData, index, manyImages))] : text;
    const block: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: id, content };
    if (isError) block.is_error = true;
    return [block];
  }
  // An assistant turn holds text and tool use only ("'image' blocks are not permitted within assistant
  // turns"): a model's file (Gemini's image output, a callback's response) is a note there.
  if (part.inlineData) return [role === 'assistant' ? { type: 'text', text: unsupportedInlineDataNote(part.inlineData, 'Anthropic', 'an assistant turn holds no files') } : toMediaBlock(part.inlineData, manyImages)];
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

/** The image type Anthropic takes that `file` is declared (compared without case), if any. */
function imageType(file: InlineData): (typeof IMAGE_TYPES)[number] | undefined {
  const mimeType = file.mimeType.toLowerCase();
  return IMAGE_TYPES.find((type) => type === mimeType);
}

function toToolUse(call: FunctionCall): Anthropic.ToolUseBlockParam {
  // `tool_use.input` must be an object, also for arguments the model sent malformed.
  return { type: 'tool_use', id: call.id, name: call.name, input: argsAsObject(call.args) };
}

/**
 * A message's inline data as {@link fileBlock} makes it; any other file as a text note saying it was left out
 * (and why, when it is not its type), so the conversation, which holds it on every later turn, can still be sent.
 */
function toMediaBlock(inlineData: InlineData, manyImages: boolean): ContentBlockParam {
  const block = fileBlock(inlineData, manyImages);
  return typeof block === 'string' || block === undefined ? { type: 'text', text: unsupportedInlineDataNote(inlineData, 'Anthropic', block) } : block;
}

type ToolResultContent = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>[number];

/**
 * A tool's file inside its `tool_result`, as {@link fileBlock} makes it (a document titled with the file's
 * name); any other file as a text note saying it was left out.
 */
function toolResultFile(file: InlineData, index: number, manyImages: boolean): ToolResultContent {
  const block = fileBlock(file, manyImages, file.displayName);
  return typeof block === 'string' || block === undefined ? { type: 'text', text: unsupportedToolFileNote(file, index, 'Anthropic', block) } : block;
}

/** Anthropic's limit on a document's title. */
const MAX_TITLE_CHARS = 500;

/**
 * The block of a file Anthropic takes, media types compared without case: a JPEG, PNG, GIF or WebP image within
 * its limits (see {@link imageRefusal}; `manyImages` when the request holds more than 20 images), a PDF, plain
 * text that is UTF-8 (with no NUL, not only whitespace) as a text document; documents titled with `title` cut to
 * 500 characters. For a file of another type, `undefined`; for one of these types
 * Anthropic would refuse all the same, why (for its note).
 */
function fileBlock(file: InlineData, manyImages: boolean, title?: string): Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam | string | undefined {
  const mimeType = file.mimeType.toLowerCase();
  const titled = title ? { title: [...title].slice(0, MAX_TITLE_CHARS).join('') } : {};
  if (mimeType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: file.data }, ...titled };
  if (mimeType === 'text/plain') {
    const text = utf8Text(file.data);
    if (text === undefined) return 'its bytes are not UTF-8 text';
    // The API refuses text that is empty or only whitespace ("text content blocks must contain non-whitespace text").
    if (text.trim() === '') return 'it holds no text';
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...titled };
  }
  const mediaType = imageType(file);
  if (!mediaType) return undefined;
  const refusal = imageRefusal(file, manyImages);
  if (refusal !== undefined) return refusal;
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: file.data } };
}

function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  return results.length === 0 ? blocks : [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}
