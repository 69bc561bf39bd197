import type { FunctionDeclaration } from '../../model/function-declaration';
import type { JsonSchema } from '../../model/json-schema';

/** One schema construct users write, for the provider dialect grid. */
export interface SchemaConstruct {
  /** Stable id, e.g. `string-length`; the grid's row key. */
  id: string;
  /** What it is, in words (the docs table's first column). */
  title: string;
  /** The tool declaration carrying the construct (its name is part of some constructs). */
  declaration: FunctionDeclaration;
  /** Arguments that break a constraint of the construct, with the path Toolsmith's validation reports (when it names one). */
  invalid?: { args: Record<string, unknown>; path?: string };
}

const object = (properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});
const tool = (id: string, title: string, parameters: JsonSchema, invalid?: SchemaConstruct['invalid'], name = id.replace(/-/g, '_')): SchemaConstruct => ({
  id,
  title,
  declaration: { name, description: title, parameters },
  invalid,
});

function deep(levels: number): JsonSchema {
  let schema: JsonSchema = object({ leaf: { type: 'string' } });
  for (let i = 1; i < levels; i++) schema = object({ child: schema });
  return schema;
}

const node = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['name'], additionalProperties: false };

/**
 * The schema constructs users actually write (from decorators, DTOs, build-time manifests and remote
 * MCP servers), each as one tool declaration: the rows of the provider dialect grid that every adapter
 * runs through {@link runDialectGrid}.
 */
export const SCHEMA_CONSTRUCTS: readonly SchemaConstruct[] = [
  tool('primitives', 'string, number, integer, boolean', object({ s: { type: 'string' }, n: { type: 'number' }, i: { type: 'integer' }, b: { type: 'boolean' } })),
  tool('nested-object', 'nested object', object({ address: object({ city: { type: 'string' }, zip: { type: 'string' } }) })),
  tool('array-of-objects', 'array of objects', object({ items: { type: 'array', items: object({ sku: { type: 'string' }, qty: { type: 'integer' } }) } })),
  tool('enum-strings', 'enum of strings', object({ unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }), { args: { unit: 'kelvin' }, path: '/unit' }),
  tool('enum-numbers', 'enum of numbers', object({ stars: { type: 'integer', enum: [1, 2, 3] } }), { args: { stars: 4 }, path: '/stars' }),
  tool('enum-mixed', 'enum of mixed values', object({ level: { enum: ['low', 1, true] } }), { args: { level: 'high' }, path: '/level' }),
  tool('optional', 'optional property', { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'], additionalProperties: false }),
  tool('nullable-type', 'nullable (type list)', object({ note: { type: ['string', 'null'] } })),
  tool('nullable-anyof', 'nullable (anyOf with null)', object({ note: { anyOf: [{ type: 'string' }, { type: 'null' }] } })),
  tool('defaults', 'defaults', { type: 'object', properties: { expedite: { type: 'boolean', default: false } }, additionalProperties: false }),
  tool('ref-defs', '$ref to $defs', { ...object({ home: { $ref: '#/$defs/Address' } }), $defs: { Address: object({ city: { type: 'string' } }) } }),
  tool('ref-recursive', 'recursive $ref (optional children)', { ...object({ root: { $ref: '#/$defs/Node' } }), $defs: { Node: node } }),
  tool('ref-recursive-required', 'recursive $ref under a required property', {
    ...object({ root: { $ref: '#/$defs/Node' } }),
    $defs: { Node: { ...node, required: ['name', 'children'] } },
  }),
  tool('ref-description', 'description beside $ref (Pydantic style)', { ...object({ home: { $ref: '#/$defs/Address', description: 'Postal address' } }), $defs: { Address: object({ city: { type: 'string' } }) } }),
  tool(
    'top-anyof',
    'anyOf at the top level (email or phone)',
    { type: 'object', properties: { email: { type: 'string' }, phone: { type: 'string' } }, additionalProperties: false, anyOf: [{ required: ['email'] }, { required: ['phone'] }] },
    { args: {}, path: '/email' },
  ),
  tool(
    'top-oneof',
    'oneOf at the top level',
    { type: 'object', properties: { id: { type: 'string' }, slug: { type: 'string' } }, additionalProperties: false, oneOf: [{ required: ['id'] }, { required: ['slug'] }] },
    { args: { id: 'a', slug: 'b' } },
  ),
  tool(
    'top-allof',
    'allOf at the top level',
    { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, additionalProperties: false, allOf: [{ required: ['from'] }, { required: ['to'] }] },
    { args: { from: 'a' }, path: '/to' },
  ),
  tool('nested-anyof', 'nested anyOf (string or integer)', object({ id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }), { args: { id: true }, path: '/id' }),
  tool('nested-oneof', 'nested oneOf', object({ amount: { oneOf: [{ type: 'integer' }, { type: 'number', multipleOf: 0.5 }] } }), { args: { amount: 2 } }),
  tool('nested-allof', 'nested allOf of one $ref', { ...object({ home: { allOf: [{ $ref: '#/$defs/Address' }], description: 'Home' } }), $defs: { Address: object({ city: { type: 'string' } }) } }),
  tool('nested-allof-many', 'nested allOf of several schemas', object({ box: { allOf: [object({ w: { type: 'number' } }), object({ h: { type: 'number' } })] } })),
  tool('const', 'const', object({ kind: { const: 'refund' } }), { args: { kind: 'charge' }, path: '/kind' }),
  tool('formats', 'string formats (email, date-time, uri)', object({ email: { type: 'string', format: 'email' }, at: { type: 'string', format: 'date-time' }, site: { type: 'string', format: 'uri' } }), {
    args: { email: 'a@b.co', at: '2026-01-01T00:00:00Z', site: 'not a uri' },
    path: '/site',
  }),
  tool('pattern', 'pattern', object({ sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } }), { args: { sku: 'abc' }, path: '/sku' }),
  tool('number-range', 'min/max on numbers (exclusive, multipleOf)', object({ pct: { type: 'number', minimum: 0, exclusiveMaximum: 100, multipleOf: 0.5 } }), { args: { pct: 100 }, path: '/pct' }),
  tool('string-length', 'min/max length of strings', object({ code: { type: 'string', minLength: 3, maxLength: 8 } }), { args: { code: 'ab' }, path: '/code' }),
  tool('array-bounds', 'min/max items, unique items', object({ tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5, uniqueItems: true } }), {
    args: { tags: ['a', 'a'] },
    path: '/tags',
  }),
  tool('map', 'additionalProperties map', object({ labels: { type: 'object', additionalProperties: { type: 'string' } } })),
  tool('tuple', 'tuple (prefixItems)', object({ point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } })),
  tool('not', 'not', object({ name: { type: 'string', not: { const: 'admin' } } }), { args: { name: 'admin' }, path: '/name' }),
  tool('conditional', 'if/then', { ...object({ country: { type: 'string' }, state: { type: 'string' } }), required: ['country'], if: { properties: { country: { const: 'US' } } }, then: { required: ['state'] } }, {
    args: { country: 'US' },
    path: '/state',
  }),
  tool('empty-object', 'empty object parameter', object({ options: { type: 'object', properties: {}, additionalProperties: false } })),
  tool('no-parameters', 'no parameters', { type: 'object', properties: {} }),
  tool('deep-nesting', 'objects nested 12 deep', deep(12)),
  tool('long-enum', 'enum of 1001 values', object({ code: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `c${i}`) } })),
  tool('long-name', 'name of 70 characters', object({ q: { type: 'string' } }), undefined, `t${'x'.repeat(69)}`),
  tool('dotted-name', 'name with a dot (files.read)', object({ path: { type: 'string' } }), undefined, 'files.read'),
  tool('leading-digit', 'name starting with a digit (2fa_verify)', object({ code: { type: 'string' } }), undefined, '2fa_verify'),
];
