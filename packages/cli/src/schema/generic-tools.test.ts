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

describe('a type parameter nothing fixes is refused, never written as an object', () => {
  it.each([
    ['a generic @Toolset class', '@Toolset() export class Open<T> { @Tool() get(key: T) { return 1; } }', 'key', 'T'],
    ['a generic method', '@Toolset() export class Method { @Tool() get<K>(key: K[]) { return 1; } }', 'key', 'K\\[\\]'],
    ['a type parameter inside an object', '@Toolset() export class Nested<T> { @Tool() get(filter: { key: T }) { return 1; } }', 'filter', '\\{ key: T; \\}'],
  ])('%s', (_, source, parameter, type) => {
    expect(() => manifestOf({ 'tools.ts': `import { Tool, Toolset } from '@toolsmith/core';\n${source}\n` })).toThrow(
      new RegExp(`parameter ${parameter} has type ${type}, a type parameter that \\w+ does not fix`),
    );
  });
});
