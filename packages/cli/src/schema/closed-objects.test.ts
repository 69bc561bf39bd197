import Ajv2020 from 'ajv/dist/2020';
import { manifestParametersSchema } from '@toolsmith/core/internal';
import { manifestOf } from '../__fixtures__/manifest-of';
import { closeObjects } from './closed-objects';

const OBJECT_TOOLS = `
import { Tool, Toolset } from '@toolsmith/core';
interface Address { street: string; zip?: string }
type Point = { x: number; y: number };
interface Category { name: string; children: Category[] }
@Toolset()
export class Shapes {
  @Tool()
  put(
    address: Address,
    point: Point,
    category: Category,
    pair: Record<'a' | 'b', string>,
    byName: Record<string, Address>,
    counts: { [key: string]: number },
    both: Address & Point,
    either: { kind: 'a'; a: string } | { kind: 'b'; b: number },
    list: { id: string }[],
  ) { return 1; }
}
`;

describe('every object the manifest writes into a parameter is closed', () => {
  const { document } = manifestOf({ 'tools.ts': OBJECT_TOOLS });
  const method = document.toolsets.Shapes.methods.put;
  const schemas = Object.fromEntries(method.parameters.map((p) => [p.name, p.schema]));
  const valid = (name: string, value: unknown) => {
    const ajv = new Ajv2020({ strict: false });
    return ajv.validate({ ...schemas[name], $defs: method.$defs }, value);
  };

  it('interfaces, type aliases, recursive types and literal-key Records refuse unknown properties', () => {
    expect(schemas.address).toMatchObject({ additionalProperties: false, required: ['street'] });
    expect(schemas.point).toMatchObject({ additionalProperties: false });
    expect(method.$defs!.Category).toMatchObject({ additionalProperties: false });
    expect(schemas.pair).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false });
    expect([valid('address', { street: 's' }), valid('address', { street: 's', admin: true })]).toEqual([true, false]);
    expect([valid('category', { name: 'a', children: [{ name: 'b', children: [] }] }), valid('category', { name: 'a', children: [{ name: 'b', children: [], x: 1 }] })]).toEqual([true, false]);
    expect([valid('pair', { a: '1', b: '2' }), valid('pair', { a: '1' }), valid('pair', { a: '1', b: '2', c: '3' })]).toEqual([true, false, false]);
  });

  it('a Record<string, T> and an index signature keep additionalProperties: T, with T closed', () => {
    expect(schemas.byName).toMatchObject({ type: 'object', additionalProperties: { type: 'object', additionalProperties: false } });
    expect(schemas.counts).toEqual({ type: 'object', additionalProperties: { type: 'number' } });
    expect([valid('byName', { home: { street: 's' } }), valid('byName', { home: { street: 's', x: 1 } })]).toEqual([true, false]);
  });

  it('an intersection is one closed object, each member of a union is closed, array elements too', () => {
    expect([valid('both', { street: 's', x: 1, y: 2 }), valid('both', { street: 's', x: 1, y: 2, z: 3 }), valid('both', { street: 's' })]).toEqual([true, false, false]);
    expect([valid('either', { kind: 'a', a: 'x' }), valid('either', { kind: 'a', a: 'x', b: 1 })]).toEqual([true, false]);
    expect([valid('list', [{ id: '1' }]), valid('list', [{ id: '1', extra: 1 }])]).toEqual([true, false]);
  });

  it('the tool schema the runtime builds from it compiles with a 2020-12 validator', () => {
    expect(() => new Ajv2020({ strict: false }).compile(manifestParametersSchema(method))).not.toThrow();
  });
});

it('an intersection with a $ref part is closed as a whole with unevaluatedProperties', () => {
  const closed = closeObjects({ allOf: [{ $ref: '#/$defs/Base' }, { type: 'object', properties: { extra: { type: 'string' } } }] });
  expect(closed).toEqual({ allOf: [{ $ref: '#/$defs/Base' }, { type: 'object', properties: { extra: { type: 'string' } } }], unevaluatedProperties: false });
  const base = { type: 'object', properties: { id: { type: 'string' } } };
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile({ ...closed, $defs: { Base: base } });
  expect([validate({ id: 'a', extra: 'b' }), validate({ id: 'a', other: 1 })]).toEqual([true, false]);
});

it('an intersection with a named (even recursive) type is merged with its definition, so it can be called', () => {
  const { document } = manifestOf({
    'tools.ts': `
import { Tool, Toolset } from '@toolsmith/core';
interface Tree { name: string; children: Tree[] }
interface Tag { tag: string }
@Toolset()
export class Trees {
  @Tool()
  put(tagged: Tree & { tag: string }, both: Tree & Tag) { return 1; }
}
`,
  });
  const method = document.toolsets.Trees.methods.put;
  const ajv = new Ajv2020({ strict: false });
  const valid = (name: string, value: unknown) => ajv.validate({ ...method.parameters.find((p) => p.name === name)!.schema, $defs: method.$defs }, value);
  for (const name of ['tagged', 'both']) {
    expect(valid(name, { name: 'a', children: [{ name: 'b', children: [] }], tag: 't' })).toBe(true);
    expect(valid(name, { name: 'a', children: [] })).toBe(false); // tag is required
    expect(valid(name, { name: 'a', children: [], tag: 't', extra: 1 })).toBe(false); // closed
    expect(valid(name, { name: 'a', children: [{ name: 'b', children: [], tag: 'x' }], tag: 't' })).toBe(false); // children are plain Trees
  }
});
