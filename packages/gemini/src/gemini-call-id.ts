import { generateCallId, stableCallId } from '@toolsmith/core/adapter-kit';

/** Prefix of the ids Toolsmith makes up for Gemini function calls that came without one. */
const GENERATED_PREFIX = 'toolsmith_gemini';

/**
 * Gives a Gemini function call an id when the API sent none: derived from the response id and the
 * call's position, so reading the same response twice gives the same id; random when the response has
 * no id either.
 */
export function geminiCallId(responseId: string | undefined, position: number, name: string): string {
  return responseId ? stableCallId(`${responseId}:${position}:${name}`, GENERATED_PREFIX) : generateCallId(GENERATED_PREFIX);
}

/**
 * True for ids {@link geminiCallId} made up. They are left out when the history goes back to Gemini,
 * which then sees its calls exactly as it sent them.
 */
export function isGeneratedGeminiCallId(id: string): boolean {
  return id.startsWith(`${GENERATED_PREFIX}_`);
}
