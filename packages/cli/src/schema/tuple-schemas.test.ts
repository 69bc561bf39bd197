import Ajv2020 from 'ajv/dist/2020';
import { manifestOf } from '../__fixtures__/manifest-of';

const TUPLE_TOOLS = `
import { Tool, Toolset } from '@toolsmith/core';
@Toolset()
export class Tuples {
  @Tool()
  place(pair: [string, number], maybe: [string, number?], many: [string, ...number[]], labeled: [name: string, age: number], none: []) { return 1; }
}
`;

describe('tuples in the manifest are draft 2020-12 arrays', () => {
  const { document } = manifestOf({ 'tools.ts': TUPLE_TOOLS });
  const schemas = Object.fromEntries(document.toolsets.Tuples.methods.place.parameters.map((p) => [p.name, p.schema]));
  const accepts = (name: string, value: unknown) => new Ajv2020({ strict: false }).validate(schemas[name], value);

  it('writes prefixItems, items (false or the rest element) and minItems', () => {
    expect(schemas.pair).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2 });
    expect(schemas.maybe).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 1 });
    expect(schemas.many).toEqual({ type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' }, minItems: 1 });
    expect(schemas.labeled).toMatchObject({ prefixItems: [{ type: 'string', title: 'name' }, { type: 'number', title: 'age' }], items: false, minItems: 2 });
    expect(schemas.none).toEqual({ type: 'array', items: false });
  });

  it('so a validator of draft 2020-12 takes exactly the values of the tuple', () => {
    expect([accepts('pair', ['a', 1]), accepts('pair', ['a']), accepts('pair', ['a', 1, 2]), accepts('pair', [1, 'a'])]).toEqual([true, false, false, false]);
    expect([accepts('maybe', ['a']), accepts('maybe', ['a', 1]), accepts('maybe', ['a', 1, 2]), accepts('maybe', [])]).toEqual([true, true, false, false]);
    expect([accepts('many', ['a']), accepts('many', ['a', 1, 2, 3]), accepts('many', ['a', 'b']), accepts('many', [])]).toEqual([true, true, false, false]);
    expect([accepts('none', []), accepts('none', [1])]).toEqual([true, false]);
  });
});

it('a tuple with a rest element before its end is refused', () => {
  const source = `import { Tool, Toolset } from '@toolsmith/core';\n@Toolset() export class Middle { @Tool() m(t: [string, ...number[], boolean]) { return 1; } }\n`;
  expect(() => manifestOf({ 'tools.ts': source })).toThrow(/parameter t has type \[string, \.\.\.number\[\], boolean\], which has no JSON Schema form \(a tuple with a rest element before its end/);
});
