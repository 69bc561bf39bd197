import { join } from 'node:path';
import { SCHEMA_CONSTRUCTS, type GridOutcome, runDialectGrid } from '@toolsmith/core/testing';
import { geminiDeclarationProblems } from './__fixtures__/gemini-schema-rules';
import { GeminiModel } from './gemini-model';
import { type GeminiSchemaDialect, prepareGeminiTools } from './prepare-gemini-tools';

const asIs = (): Record<string, GridOutcome> => Object.fromEntries(SCHEMA_CONSTRUCTS.map((construct) => [construct.id, 'as is' as const]));

// prettier-ignore
const JSON_SCHEMA: Record<string, GridOutcome> = {
  ...asIs(),
  'enum-mixed': 'rewritten', 'ref-recursive-required': 'refused', 'top-allof': 'rewritten', 'nested-oneof': 'rewritten', 'nested-allof-many': 'refused',
  pattern: 'rewritten', 'number-range': 'rewritten', 'string-length': 'rewritten', 'array-bounds': 'rewritten', not: 'rewritten', conditional: 'rewritten',
  'long-name': 'refused', 'leading-digit': 'refused',
};

// prettier-ignore
const OPENAPI: Record<string, GridOutcome> = {
  ...asIs(),
  'enum-numbers': 'rewritten', 'enum-mixed': 'refused', 'ref-recursive': 'refused', 'ref-recursive-required': 'refused', 'top-anyof': 'refused',
  'top-oneof': 'refused', 'top-allof': 'refused', 'nested-anyof': 'refused', 'nested-oneof': 'refused', 'nested-allof-many': 'refused',
  formats: 'rewritten', 'number-range': 'rewritten', 'array-bounds': 'rewritten', map: 'refused', tuple: 'refused', not: 'refused',
  conditional: 'rewritten', 'empty-object': 'refused', 'long-name': 'refused', 'leading-digit': 'refused',
};

for (const [dialect, schemaDialect, expected] of [
  ['Gemini JSON Schema', 'json-schema', JSON_SCHEMA],
  ['Gemini OpenAPI subset', 'openapi', OPENAPI],
] as const) {
  runDialectGrid({
    dialect,
    providerName: 'Gemini',
    createModel: () => new GeminiModel({ model: 'gemini-2.5-flash', apiKey: 'k', schemaDialect: schemaDialect as GeminiSchemaDialect }),
    sentSchema: (declaration) => prepareGeminiTools({ tools: [declaration] }, schemaDialect).tools![0].functionDeclarations![0],
    rules: (sent) => geminiDeclarationProblems(sent as Parameters<typeof geminiDeclarationProblems>[0]),
    expected,
    docPath: join(__dirname, '../../../docs/providers.md'),
  });
}
