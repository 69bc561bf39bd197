import { manifestOf } from '../__fixtures__/manifest-of';

const GENERIC_TOOLS = `
import { Tool, Toolset, ToolContext } from '@toolsmith/core';

export abstract class Repo<T> {
  /** Gets items by key. */
  @Tool()
  get(key: T, filter: { key: T; also?: T[] }, limit?: number, more?: T) { return { key }; }
}

@Toolset({ prefix: 'users_' })
export class UserRepo extends Repo<number> {}

@Toolset({ prefix: 'tags_' })
export class TagRepo extends Repo<'red' | 'blue'> {}

export abstract class Batches<U> extends Repo<U[]> {}

@Toolset()
export class NameBatches extends Batches<string> {}

export abstract class WithContext<C> {
  @Tool()
  whoAmI(city: string, ctx: C) { return city; }
}

@Toolset()
export class ContextRepo extends WithContext<ToolContext> {}
`;

describe('a @Tool inherited from a generic base class', () => {
  const { document } = manifestOf({ 'tools.ts': GENERIC_TOOLS });
  const schemas = (className: string) => Object.fromEntries(document.toolsets[className].methods.get.parameters.map((p) => [p.name, p.schema]));

  it("gets the subclass's type arguments in its parameters", () => {
    expect(schemas('UserRepo')).toEqual({
      key: { type: 'number' },
      filter: expect.objectContaining({
        type: 'object',
        properties: { key: { type: 'number' }, also: { type: 'array', items: { type: 'number' } } },
        required: ['key'],
      }),
      limit: { type: 'number' },
      more: { type: 'number' },
    });
    expect(schemas('TagRepo').key).toEqual({ type: 'string', enum: expect.arrayContaining(['red', 'blue']) });
    expect(document.toolsets.UserRepo.methods.get.parameters.map((p) => [p.name, p.optional])).toEqual([
      ['key', false],
      ['filter', false],
      ['limit', true],
      ['more', true],
    ]);
  });

  it('and in its output schema', () => {
    expect(document.toolsets.UserRepo.methods.get.outputSchema).toEqual({ type: 'object', properties: { key: { type: 'number' } }, required: ['key'] });
  });

  it('through two generic levels', () => {
    expect(schemas('NameBatches').key).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('with the ToolContext as the type argument, injects the context there', () => {
    const method = document.toolsets.ContextRepo.methods.whoAmI;
    expect(method.parameters.map((p) => p.name)).toEqual(['city']);
    expect(method.contextIndex).toBe(1);
  });
});

const DERIVED_TYPES = `
import { Tool, Toolset } from '@toolsmith/core';
type IsText<T> = T extends string ? 'S' : 'N';
export abstract class Derived<T extends string, O extends { k: unknown; a: string }> {
  @Tool()
  m(cond: T extends 'abc' ? 'S' : 'N', alias: IsText<O>, upper: Uppercase<T>, key: keyof O, indexed: O['k'], id: \`id-\${T}\`,
    mapped: { [K in keyof O]?: boolean }, pair: [T, O['k']?], picked: T extends 'abc' ? { n: O['k'] } : { s: string }) { return 1; }
}
@Toolset()
export class Fixed extends Derived<'abc', { k: number; a: string }> {}
`;

it('a type built from a type parameter (conditional, intrinsic, keyof, indexed, template, mapped) gets the type arguments too', () => {
  const parameters = manifestOf({ 'tools.ts': DERIVED_TYPES }).document.toolsets.Fixed.methods.m.parameters;
  expect(Object.fromEntries(parameters.map((p) => [p.name, p.schema]))).toEqual({
    cond: { type: 'string', const: 'S' },
    alias: { type: 'string', const: 'N' },
    upper: { type: 'string', const: 'ABC' },
    key: { type: 'string', enum: expect.arrayContaining(['k', 'a']) },
    indexed: { type: 'number' },
    id: { type: 'string', const: 'id-abc' },
    mapped: { type: 'object', properties: { k: { type: 'boolean' }, a: { type: 'boolean' } }, additionalProperties: false },
    pair: { type: 'array', prefixItems: [{ type: 'string', const: 'abc' }, { type: 'number' }], items: false, minItems: 1 },
    picked: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
  });
});

describe('a type parameter nothing fixes is refused, never written as an object', () => {
  it.each([
    ['a generic @Toolset class', '@Toolset() export class Open<T> { @Tool() get(key: T) { return 1; } }', 'key', 'T'],
    ['a generic method', '@Toolset() export class Method { @Tool() get<K>(key: K[]) { return 1; } }', 'key', 'K\\[\\]'],
    ['a type parameter inside an object', '@Toolset() export class Nested<T> { @Tool() get(filter: { key: T }) { return 1; } }', 'filter', '\\{ key: T; \\}'],
    ['a conditional type', "@Toolset() export class C<T> { @Tool() get(v: T extends string ? 'S' : 'N') { return 1; } }", 'v', 'T extends string \\? "S" : "N"'],
    ['an intrinsic string type', '@Toolset() export class C<T extends string> { @Tool() get(v: Uppercase<T>) { return 1; } }', 'v', 'Uppercase<T>'],
    ['keyof', '@Toolset() export class C<T> { @Tool() get(v: keyof T) { return 1; } }', 'v', 'keyof T'],
    ['an indexed access', "@Toolset() export class C<T extends { k: unknown }> { @Tool() get(v: T['k']) { return 1; } }", 'v', 'T\\["k"\\]'],
    ['a template literal', '@Toolset() export class C<T extends string> { @Tool() get(v: `id-${T}`) { return 1; } }', 'v', '`id-\\$\\{T\\}`'],
    ['a mapped type', '@Toolset() export class C<T> { @Tool() get(v: { [K in keyof T]: boolean }) { return 1; } }', 'v', '\\{ \\[K in keyof T\\]: boolean; \\}'],
    ['a tuple', '@Toolset() export class C<T> { @Tool() get(v: [T, string]) { return 1; } }', 'v', '\\[T, string\\]'],
    ['a function', '@Toolset() export class C<T> { @Tool() get(v: { f: (x: T) => void }) { return 1; } }', 'v', '\\{ f: \\(x: T\\) => void; \\}'],
  ])('%s', (_, source, parameter, type) => {
    expect(() => manifestOf({ 'tools.ts': `import { Tool, Toolset } from '@toolsmith/core';\n${source}\n` })).toThrow(
      new RegExp(`parameter ${parameter} has type ${type}, a type parameter that \\w+ does not fix`),
    );
  });
});
