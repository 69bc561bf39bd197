import { countTokens as countClaudeTokens } from '@anthropic-ai/tokenizer';

// js-tiktoken ships a CommonJS build (its "require" condition) but only ES module type declarations,
// which TypeScript (module node16) refuses as a value import from CommonJS: types by import, values by require.
type JsTiktoken = typeof import('js-tiktoken', { with: { 'resolution-mode': 'import' } });
const { getEncoding } = require('js-tiktoken') as JsTiktoken;
import type { WireApi } from './wire-replies';

/** A tokenizer of a provider family: its name as printed, and the count of tokens of a text. */
export interface FamilyTokenizer {
  name: string;
  count(text: string): number;
}

let o200k: ReturnType<typeof getEncoding> | undefined;

/**
 * The real tokenizer published on npm for `api`'s model family: OpenAI's o200k_base (js-tiktoken) for
 * both OpenAI APIs, Anthropic's own `@anthropic-ai/tokenizer` (the tokenizer Anthropic published, of its
 * earlier models: an approximation for current Claude models, the same for every framework), and none
 * for Gemini, whose tokenizer is not published (bytes only).
 */
export function tokenizerFor(api: WireApi): FamilyTokenizer | undefined {
  switch (api) {
    case 'chat':
    case 'responses':
      return { name: 'o200k_base', count: (text) => (o200k ??= getEncoding('o200k_base')).encode(text).length };
    case 'anthropic':
      return { name: '@anthropic-ai/tokenizer', count: countClaudeTokens };
    case 'gemini':
      return undefined;
  }
}
