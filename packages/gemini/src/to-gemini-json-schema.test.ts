import { CONSTRAINT_NOTE_PREFIX } from '@toolsmith/core/adapter-kit';
import { GeminiSchemaError } from './gemini-schema-error';
import { toGeminiJsonSchema } from './to-gemini-json-schema';

describe('toGeminiJsonSchema', () => {
  it('keeps documented keywords, spells const as enum, wraps a $ref with a description, states the rest in the description', () => {
    expect(
      toGeminiJsonSchema(
        {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            kind: { const: 'refund' },
            home: { $ref: '#/$defs/A', description: 'Home' },
            code: { type: 'string', minLength: 3, pattern: '^[A-Z]+$', default: 'ABC' },
          },
          required: ['kind', 'home'],
          $defs: { A: { type: 'object', properties: { city: { type: 'string' } }, examples: [{ city: 'Oslo' }] } },
        },
        't',
      ),
    ).toEqual({
      type: 'object',
      properties: {
        kind: { enum: ['refund'] },
        home: { anyOf: [{ $ref: '#/$defs/A' }], description: 'Home' },
        code: { type: 'string', description: `Default: "ABC". ${CONSTRAINT_NOTE_PREFIX} {"minLength":3,"pattern":"^[A-Z]+$"}.` },
      },
      required: ['kind', 'home'],
      $defs: { A: { type: 'object', properties: { city: { type: 'string' } } } },
    });
  });

  it('takes recursion through optional properties and refuses a cycle closed under a required one', () => {
    const tree = (required: string[]) => ({
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      required: ['root'],
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required } },
    });
    expect(() => toGeminiJsonSchema(tree(['name']), 't')).not.toThrow();
    const error = (() => {
      try {
        toGeminiJsonSchema(tree(['name', 'children']), 'tree_tool');
      } catch (caught) {
        return caught as GeminiSchemaError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error).toBeInstanceOf(GeminiSchemaError);
    expect(error.schemaPath).toBe('/$defs/Node/properties/children/items');
    expect(error.message).toMatch(/^Tool "tree_tool" cannot be sent to Gemini as JSON Schema: .*required property.*Fix:/);
  });
});
