import type { LlmRequest } from '../model/llm-request';
import type { JsonSchema } from '../model/json-schema';
import { REQUEST_ONLY_TOOL } from '../tools/request-only-tool';
import { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';

/**
 * The tool behind {@link preloadMemory}: before each request, searches memory with the user's latest
 * text and adds what it finds to the system instruction. The model never calls it.
 */
export class PreloadMemoryTool extends BaseTool {
  /** Marks it request-only: it is never declared to the model, only its `processRequest` runs. */
  readonly [REQUEST_ONLY_TOOL] = true;
  /** The tool's name, for traces and messages; the model never sees it. */
  readonly name = 'preload_memory';
  /** Describes the tool for people; never sent to the model. */
  readonly description = 'Adds relevant past conversations to the instruction.';
  /** An empty object schema: the tool takes no arguments. */
  readonly parameters: JsonSchema = { type: 'object', properties: {} };

  /** Never called by the model (the tool is not declared); returns an empty object. */
  run(): Record<string, unknown> {
    return {};
  }

  /**
   * Searches memory with the latest user text of the request and appends the memories found, as a
   * `<PAST_CONVERSATIONS>` block, to the system instruction. Does nothing when there is no user text or no memory.
   */
  override async processRequest(context: ToolContext, request: LlmRequest): Promise<void> {
    const query = latestUserText(request);
    if (!query) return;
    const { memories } = await context.searchMemory(query);
    if (memories.length === 0) return;
    const lines = memories.map((m) => {
      const text = m.content.parts.map((p) => p.text ?? '').join(' ').trim();
      return `${m.timestamp ? `Time: ${m.timestamp}\n` : ''}${m.author ?? m.content.role}: ${text}`;
    });
    const block = `The following content is from your previous conversations with the user. It may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\n${lines.join('\n')}\n</PAST_CONVERSATIONS>`;
    request.systemInstruction = request.systemInstruction ? `${request.systemInstruction}\n\n${block}` : block;
  }
}

function latestUserText(request: LlmRequest): string {
  for (let i = request.contents.length - 1; i >= 0; i--) {
    const content = request.contents[i];
    if (content.role !== 'user') continue;
    const text = content.parts.map((p) => p.text ?? '').join(' ').trim();
    if (text) return text;
  }
  return '';
}

/** Puts memories relevant to the user's message into every request (needs a `memoryService` on the Runner). */
export const preloadMemory: BaseTool = new PreloadMemoryTool();
