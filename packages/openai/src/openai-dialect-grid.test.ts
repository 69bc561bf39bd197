import { join } from 'node:path';
import type { FunctionDeclaration } from '@toolsmith/core';
import { type GridOutcome, runDialectGrid } from '@toolsmith/core/testing';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { openAIToolProblems } from './__fixtures__/openai-schema-rules';
import { OpenAIModel } from './openai-model';
import { type OpenAIApi, prepareOpenAITools } from './prepare-openai-tools';

const docPath = join(__dirname, '../../../docs/providers.md');

// prettier-ignore
const STRICT: Record<string, GridOutcome> = {
  primitives: 'as is', 'nested-object': 'as is', 'array-of-objects': 'as is', 'enum-strings': 'as is', 'enum-numbers': 'as is',
  'enum-mixed': 'as is', optional: 'as is', 'nullable-type': 'as is', 'nullable-anyof': 'as is', defaults: 'as is', 'ref-defs': 'as is',
  'ref-recursive': 'as is', 'ref-recursive-required': 'as is', 'ref-description': 'as is', 'top-anyof': 'rewritten', 'top-oneof': 'rewritten',
  'top-allof': 'rewritten', 'nested-anyof': 'as is', 'nested-oneof': 'rewritten', 'nested-allof': 'as is', 'nested-allof-many': 'refused',
  const: 'as is', formats: 'rewritten', pattern: 'as is', 'number-range': 'as is', 'string-length': 'rewritten', 'array-bounds': 'rewritten',
  map: 'refused', tuple: 'refused', not: 'rewritten', conditional: 'rewritten', 'empty-object': 'as is', 'no-parameters': 'as is',
  'deep-nesting': 'refused', 'long-enum': 'refused', 'long-name': 'refused', 'dotted-name': 'refused', 'leading-digit': 'as is',
};

// prettier-ignore
const NON_STRICT: Record<string, GridOutcome> = {
  ...Object.fromEntries(Object.keys(STRICT).map((id) => [id, 'as is' as const])),
  'long-name': 'refused', 'dotted-name': 'refused',
};

type SentTool = { name: string; parameters: unknown; strict?: boolean | null };

/** The function tool as the request body carries it (Chat nests it under `function`). */
function sentTool(declaration: FunctionDeclaration, api: OpenAIApi, strict: boolean): SentTool {
  const tool = prepareOpenAITools({ request: { tools: [declaration] }, api, strict }).tools![0];
  return (api === 'chat' ? (tool as Extract<ChatCompletionTool, { type: 'function' }>).function : (tool as FunctionTool)) as SentTool;
}

for (const [dialect, api, strict, expected] of [
  ['OpenAI strict (Chat)', 'chat', true, STRICT],
  ['OpenAI strict (Responses)', 'responses', true, STRICT],
  ['OpenAI non-strict', 'chat', false, NON_STRICT],
] as const) {
  runDialectGrid({
    dialect,
    providerName: 'OpenAI',
    createModel: () => new OpenAIModel({ model: 'gpt-4.1-mini', apiKey: 'k', api, strict }),
    sentSchema: (declaration) => sentTool(declaration, api, strict),
    rules: (sent) => openAIToolProblems(sent as SentTool),
    expected,
    docPath,
  });
}
