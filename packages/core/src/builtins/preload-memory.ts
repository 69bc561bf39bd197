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
  readonly [REQUEST_ONLY_TOOL] = true;
  readonly name = 'preload_memory';
  readonly description = 'Adds relevant past conversations to the instruction.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };

  run(): Record<string, unknown> {
    return {};
  }

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
