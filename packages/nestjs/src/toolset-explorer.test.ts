import { ForbiddenException, Injectable, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Param, Tool, Toolset } from '@toolsmith/core';
import { executeToolCall } from '@toolsmith/core/internal';
import type { BaseTool } from '@toolsmith/core';
import { testToolContext } from '@toolsmith/core/testing';
import { NestContainerAdapter } from './nest-container-adapter';
import { ToolsetExplorer } from './toolset-explorer';
import { TOOLSMITH_MODULE_OPTIONS } from './toolsmith.tokens';

@Injectable()
class Greeter {
  greet(name: string) {
    return `Hello, ${name}!`;
  }
}

@Toolset({ prefix: 'greet_' })
@Injectable()
class GreetingTools {
  constructor(private readonly greeter: Greeter) {}

  @Tool({ description: 'Greets someone.' })
  hello(@Param('name') name: string) {
    return { text: this.greeter.greet(name) };
  }

  @Tool({ description: 'Refuses.' })
  refuse() {
    throw new ForbiddenException('No greetings today.');
  }
}

@Toolset()
class AliasedTools {
  @Tool({ description: 'Says which provider this is.' })
  whoAmI() {
    return { me: 'aliased' };
  }
}

@Toolset()
class ValueTools {
  constructor(private readonly word: string) {}
  @Tool({ description: 'Says the word.' })
  say() {
    return { word: this.word };
  }
}

@Toolset()
class FactoryTools {
  @Tool({ description: 'Never found: a factory provider.' })
  hidden() {
    return {};
  }
}

// Tools of an ordinary provider are not tools unless its class is a @Toolset.
@Injectable()
class NotAToolset {
  @Tool({ description: 'Ignored.' })
  ignored() {
    return {};
  }
}

@Module({ providers: [Greeter, GreetingTools], exports: [GreetingTools] })
class GreetingModule {}

async function explorer(mapHttpExceptions?: boolean): Promise<ToolsetExplorer> {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule, GreetingModule],
    providers: [
      NestContainerAdapter,
      ToolsetExplorer,
      { provide: TOOLSMITH_MODULE_OPTIONS, useValue: { agent: () => undefined, mapHttpExceptions } },
      { provide: 'ALIASED', useClass: AliasedTools },
      { provide: 'VALUE', useValue: new ValueTools('tea') },
      { provide: FactoryTools, useFactory: () => new FactoryTools() },
      NotAToolset,
    ],
  }).compile();
  return moduleRef.get(ToolsetExplorer);
}

async function run(tool: BaseTool, args: Record<string, unknown> = {}) {
  const context = testToolContext({ functionCallId: 'c1' });
  const out = await executeToolCall({ call: { id: 'c1', name: tool.name, args }, tool, availableToolNames: () => [], context });
  return out.response.response;
}

const refuseTool = (instance: ToolsetExplorer) => instance.explore().find((d) => d.toolsetClass === GreetingTools)!.tools[1];

describe('ToolsetExplorer', () => {
  it('finds every @Toolset provider (class, useClass, useValue) and nothing else', async () => {
    const found = (await explorer()).explore();
    expect(found.map((d) => [d.token, d.toolsetClass, d.prefix, d.tools.map((t) => t.name)])).toEqual(
      expect.arrayContaining([
        [GreetingTools, GreetingTools, 'greet_', ['greet_hello', 'greet_refuse']],
        ['ALIASED', AliasedTools, undefined, ['whoAmI']],
        ['VALUE', ValueTools, undefined, ['say']],
      ]),
    );
    expect(found).toHaveLength(3);
  });

  it('builds tools whose instance comes from Nest with its dependencies', async () => {
    const found = (await explorer()).explore();
    const byName = new Map(found.flatMap((d) => d.tools.map((t) => [t.name, t] as const)));
    expect(await run(byName.get('greet_hello')!, { name: 'Ada' })).toEqual({ text: 'Hello, Ada!' });
    expect(await run(byName.get('whoAmI')!)).toEqual({ me: 'aliased' });
    expect(await run(byName.get('say')!)).toEqual({ word: 'tea' });
  });

  it('explores once', async () => {
    const instance = await explorer();
    expect(instance.explore()).toBe(instance.explore());
  });

  it('maps HttpExceptions of the tools, unless turned off', async () => {
    const mapped = refuseTool(await explorer());
    expect(await run(mapped)).toMatchObject({ error: { code: 'HTTP_EXCEPTION', message: expect.stringContaining('HTTP 403') } });
    const plain = refuseTool(await explorer(false));
    expect(await run(plain)).toMatchObject({ error: { code: 'TOOL_EXECUTION_FAILED' } });
  });
});
