import type Anthropic from '@anthropic-ai/sdk';
import type { Content, FunctionCall, InlineData, Part } from '@toolsmith/core';
import { argsAsObject, modelTurnFileNote, pairToolResults, ownThoughtSignature, providerDataOf, unsupportedInlineDataNote, unsupportedToolFileNote, utf8Text } from '@toolsmith/core/adapter-kit';
import { type FileKind, type FileRefusal, requestFileRefusals } from './anthropic-image-limits';
import { ANTHROPIC_PROVIDER } from './provider-tool';
import { ANTHROPIC_CALL_IDS } from './anthropic-tool-limits';

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
 * tool calls with anything before the results). A file Anthropic would refuse goes as a note (see
 * anthropic-image-limits.ts: an image's pixels and bytes, the images and bytes of files a request holds).
 */
export function convertToAnthropicMessages(contents: Content[], systemInstruction?: string): AnthropicPrompt {
  const messages: AnthropicPrompt['messages'] = [];
  const paired = pairToolResults(contents, ANTHROPIC_CALL_IDS);
  const files = new RequestFiles(paired);
  for (const content of paired) {
    const role = content.role === 'model' ? 'assistant' : 'user';
    const blocks = content.parts.flatMap((part) => convertPart(part, role, files));
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
 * The files the request would send as blocks of their own (a user's and a tool's, of a type {@link fileBlock}
 * sends; not a model turn's), in the order {@link convertPart} meets them, and why Anthropic would refuse each
 * (see {@link requestFileRefusals}): {@link next} gives them out in that order.
 */
class RequestFiles {
  private readonly refusals: (FileRefusal | undefined)[] | undefined;
  private index = 0;

  constructor(contents: readonly Content[]) {
    const files: InlineData[] = [];
    const kinds: FileKind[] = [];
    const blocks: object[] = [];
    for (const content of contents) {
      for (const part of content.parts) {
        if (part.functionCall) continue;
        if (part.functionResponse) {
          for (const file of part.functionResponse.parts ?? []) RequestFiles.add(file.inlineData, files, kinds);
        } else if (part.inlineData) {
          if (content.role !== 'model') RequestFiles.add(part.inlineData, files, kinds);
        } else if (part.providerData && content.role === 'model') {
          // Anthropic's own blocks go back in an assistant turn as received (see convertPart): counted against the request's limits.
          const block = providerDataOf(part, ANTHROPIC_PROVIDER);
          if (block !== undefined) blocks.push(block);
        }
      }
    }
    this.refusals = files.length === 0 ? undefined : requestFileRefusals(files, kinds, blocks);
  }

  /** Why the request's next file (of a type it sends) is refused, or `undefined`. */
  next(): FileRefusal | undefined {
    return this.refusals?.[this.index++];
  }

  private static add(file: InlineData, files: InlineData[], kinds: FileKind[]): void {
    const kind = fileKind(file.mimeType.toLowerCase());
    if (kind === undefined) return;
    files.push(file);
    kinds.push(kind);
  }
}

/** Whether a file of (lower-case) `mimeType` goes as an image, a PDF or a text document, or (`undefined`) as a note for its type. */
function fileKind(mimeType: string): FileKind | undefined {
  if (mimeType === 'application/pdf') return 'pdf';
  if (mimeType === 'text/plain') return 'text';
  return imageType(mimeType) === undefined ? undefined : 'image';
}

function convertPart(part: Part, role: 'user' | 'assistant', files: RequestFiles): ContentBlockParam[] {
  if (part.functionCall) return [toToolUse(part.functionCall)];
  if (part.functionResponse) {
    const { id, response, isError, parts } = part.functionResponse;
    const text = JSON.stringify(response);
    // Files go in the result itself, as image and document blocks after the JSON.
    const content = parts?.length ? [{ type: 'text' as const, text }, ...parts.map((file, index) => toolResultFile(file.inlineData, index, files))] : text;
    const block: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: id, content };
    if (isError) block.is_error = true;
    return [block];
  }
  // An assistant turn holds text and tool use only ("'image' blocks are not permitted within assistant
  // turns"): a model's file (Gemini's image output, a callback's response) is a note there.
  if (part.inlineData) return [role === 'assistant' ? { type: 'text', text: modelTurnFileNote(part.inlineData, 'an assistant turn holds no files') } : toMediaBlock(part.inlineData, files)];
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

/** The image type Anthropic takes that (lower-case) `mimeType` is, if any. */
function imageType(mimeType: string): 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | undefined {
  return mimeType === 'image/jpeg' || mimeType === 'image/png' || mimeType === 'image/gif' || mimeType === 'image/webp' ? mimeType : undefined;
}

function toToolUse(call: FunctionCall): Anthropic.ToolUseBlockParam {
  // `tool_use.input` must be an object, also for arguments the model sent malformed.
  return { type: 'tool_use', id: call.id, name: call.name, input: argsAsObject(call.args) };
}

/**
 * A message's inline data as {@link fileBlock} makes it; any other file as a text note saying it was left out, or
 * is not sent in this request (and why, when it is not its type), so the conversation, which holds it on every
 * later turn, can still be sent.
 */
function toMediaBlock(inlineData: InlineData, files: RequestFiles): ContentBlockParam {
  const block = fileBlock(inlineData, files);
  return isBlock(block) ? block : { type: 'text', text: unsupportedInlineDataNote(inlineData, 'Anthropic', block?.reason, block) };
}

const isBlock = (block: FileBlock | FileRefusal | undefined): block is FileBlock => block !== undefined && 'type' in block;

type ToolResultContent = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>[number];

/**
 * A tool's file inside its `tool_result`, as {@link fileBlock} makes it (a document titled with the file's
 * name); any other file as a text note saying it was left out, or is not sent in this request.
 */
function toolResultFile(file: InlineData, index: number, files: RequestFiles): ToolResultContent {
  const block = fileBlock(file, files, file.displayName);
  return isBlock(block) ? block : { type: 'text', text: unsupportedToolFileNote(file, index, 'Anthropic', block?.reason, block) };
}

/** Anthropic's limit on a document's title. */
const MAX_TITLE_CHARS = 500;

type FileBlock = Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam;

/**
 * The block of a file Anthropic takes, media types compared without case: a JPEG, PNG, GIF or WebP image, a PDF,
 * plain text that is UTF-8 (with no NUL, not only whitespace) as a text document; documents titled with `title`
 * cut to 500 characters. For a file of another type, `undefined`; for one of these types Anthropic would refuse
 * all the same (`files`: by the limits on the file and on the request), why (for its note).
 */
function fileBlock(file: InlineData, files: RequestFiles, title?: string): FileBlock | FileRefusal | undefined {
  const mimeType = file.mimeType.toLowerCase();
  if (fileKind(mimeType) === undefined) return undefined;
  const refusal = files.next();
  if (refusal !== undefined) return refusal;
  const titled = title ? { title: [...title].slice(0, MAX_TITLE_CHARS).join('') } : {};
  if (mimeType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: file.data }, ...titled };
  if (mimeType === 'text/plain') {
    const text = utf8Text(file.data);
    if (text === undefined) return { reason: 'its bytes are not UTF-8 text', thisRequestOnly: false };
    // The API refuses text that is empty or only whitespace ("text content blocks must contain non-whitespace text").
    if (text.trim() === '') return { reason: 'it holds no text', thisRequestOnly: false };
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...titled };
  }
  const mediaType = imageType(mimeType);
  return mediaType === undefined ? undefined : { type: 'image', source: { type: 'base64', media_type: mediaType, data: file.data } };
}

function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  return results.length === 0 ? blocks : [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}
