import { join } from 'node:path';
import { SCHEMA_CONSTRUCTS, type GridOutcome, runDialectGrid } from '@toolsmith/core/testing';
import { anthropicToolProblems } from './__fixtures__/anthropic-schema-rules';
import { AnthropicModel } from './anthropic-model';
import { prepareAnthropicTools } from './prepare-anthropic-tools';

// prettier-ignore
const EXPECTED: Record<string, GridOutcome> = {
  ...Object.fromEntries(SCHEMA_CONSTRUCTS.map((construct) => [construct.id, 'as is' as const])),
  'top-anyof': 'rewritten', 'top-oneof': 'rewritten', 'top-allof': 'rewritten', 'long-name': 'refused', 'dotted-name': 'refused',
};

runDialectGrid({
  dialect: 'Anthropic',
  providerName: 'Anthropic',
  createModel: () => new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 1024, apiKey: 'k' }),
  sentSchema: (declaration) => prepareAnthropicTools({ tools: [declaration] }).tools![0],
  rules: (sent) => anthropicToolProblems(sent as { name: string; input_schema: Record<string, unknown> }),
  expected: EXPECTED,
  docPath: join(__dirname, '../../../docs/providers.md'),
});
