import { Tool, ToolContext, Toolset, loadManifest, useManifest } from '@toolsmith/core';
import * as core from '@toolsmith/core';
import { invokeTool } from '@toolsmith/core/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestOf } from '../__fixtures__/manifest-of';

// The ToolContext named every way TypeScript allows: each is the context, never a model argument.
const CONTEXT_TOOLS = `
import { Tool, Toolset, type ToolContext as Aliased } from '@toolsmith/core';
import * as core from '@toolsmith/core';
import type { Again } from './reexport';

type Context = core.ToolContext;
type ContextOfContext = Context;

@Toolset()
export class ContextTools {
  @Tool()
  aliased(city: string, ctx: Context) { return { city, userId: ctx.userId, isContext: ctx instanceof core.ToolContext }; }
  @Tool()
  chain(ctx: ContextOfContext, city: string) { return city + ctx.userId; }
  @Tool()
  imported(city: string, ctx: Aliased) { return city + ctx.userId; }
  @Tool()
  namespaced(city: string, ctx: core.ToolContext) { return city + ctx.userId; }
  @Tool()
  reexported(city: string, ctx: Again) { return city + ctx.userId; }
}
`;
const REEXPORT = `export type { ToolContext as Again } from '@toolsmith/core';\n`;

type Context = core.ToolContext;

// The same class as the source above, for the runtime: `Context` is an alias, so its decorator metadata says `Object`.
@Toolset()
class ContextTools {
  @Tool()
  aliased(city: string, ctx: Context) {
    return { city, userId: ctx.userId, isContext: ctx instanceof ToolContext };
  }
}

describe('the manifest recognises the ToolContext however it is named', () => {
  const { document, dir } = manifestOf({ 'tools.ts': CONTEXT_TOOLS, 'reexport.ts': REEXPORT });

  it.each(['aliased', 'imported', 'namespaced', 'reexported'])('%s: the context is left out and its position recorded', (name) => {
    const method = document.toolsets.ContextTools.methods[name];
    expect(method.parameters.map((p) => p.name)).toEqual(['city']);
    expect(method.contextIndex).toBe(1);
  });

  it('through an alias of an alias, in first position', () => {
    const method = document.toolsets.ContextTools.methods.chain;
    expect(method.parameters.map((p) => [p.name, p.index])).toEqual([['city', 1]]);
    expect(method.contextIndex).toBe(0);
  });

  it('so the model cannot send a context: the argument is unknown, and the tool gets the real one', async () => {
    const path = join(dir, 'toolsmith.schema.json');
    // The runtime class has only `aliased`: the entry must describe that class, or startup reports it as another one.
    const { ContextTools: entry } = document.toolsets;
    writeFileSync(path, JSON.stringify({ ...document, toolsets: { ContextTools: { ...entry, methods: { aliased: entry.methods.aliased } } } }));
    useManifest(loadManifest(path, { onStale: 'error', onMissingMethod: 'error' }));
    const forged = await invokeTool(ContextTools, 'aliased', { city: 'Paris', ctx: { userId: 'forged' } } as never);
    expect(forged).toMatchObject({ isError: true, error: { code: 'INVALID_ARGUMENTS' } });
    const real = await invokeTool(ContextTools, 'aliased', { city: 'Paris' }, { userId: 'u1' });
    expect(real.response).toEqual({ city: 'Paris', userId: 'u1', isContext: true });
  });
});

describe('a parameter whose type only contains the ToolContext is refused', () => {
  it.each([
    ['a union', 'ctx: ToolContext | undefined'],
    ['an object holding it', 'ctx: { inner: ToolContext }'],
    ['a wrapper', 'ctx: Readonly<ToolContext>'],
    ['a subclass', 'ctx: MyContext'],
  ])('%s', (_, parameter) => {
    const source = `
import { Tool, Toolset, ToolContext } from '@toolsmith/core';
export abstract class MyContext extends ToolContext {}
@Toolset()
export class Leaky {
  @Tool()
  leak(city: string, ${parameter}) { return city; }
}
`;
    expect(() => manifestOf({ 'tools.ts': source })).toThrow(/parameter ctx has type .*, which contains ToolContext without being it.*Type the parameter ToolContext/);
  });
});
