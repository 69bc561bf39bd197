import type { Tool } from '@google/genai' with { 'resolution-mode': 'import' };
import type { ProviderTool } from '@toolsmith/core';

/** The provider id of {@link GeminiModel} and of the tools {@link providerTool} creates. */
export const GEMINI_PROVIDER = 'gemini';

/** A Gemini built-in tool as `@google/genai` spells it: one key such as `googleSearch`, `codeExecution`, `urlContext`. */
export type GeminiBuiltInTool = Omit<Tool, 'functionDeclarations'>;

/**
 * Declares a Gemini built-in tool (Google Search grounding, code execution, URL context, …) for an
 * agent. The object is sent as one entry of `tools` untouched; the tool runs at Google, so no function
 * call reaches the agent.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'researcher',
 *   model: new GeminiModel({ model: 'gemini-2.5-flash' }),
 *   tools: [providerTool({ googleSearch: {} }), providerTool({ codeExecution: {} })],
 * });
 * ```
 */
export function providerTool(tool: GeminiBuiltInTool): ProviderTool {
  const keys = Object.keys(tool);
  if (keys.length === 0) throw new TypeError('providerTool() needs a Gemini tool object such as { googleSearch: {} }.');
  return { kind: 'provider-tool', provider: GEMINI_PROVIDER, name: keys.join('+'), config: { ...tool } as Record<string, unknown> };
}
