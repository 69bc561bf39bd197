import { Inject, Injectable, Module, NotFoundException, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test, TestingModule } from '@nestjs/testing';
import { AgentConfigError, LlmAgent, Param, Runner, Tool, Toolset } from '@toolsmith/core';
import type { BeforeToolCallback, FunctionResponse, LlmRequest, Plugin, ResolutionScope } from '@toolsmith/core';
import { ScriptedModel, collect } from '@toolsmith/core/testing';
import type { Script } from '@toolsmith/core/testing';
import { randomUUID } from 'node:crypto';
import { InjectRunner } from './inject-runner.decorator';
import { NestContainerAdapter } from './nest-container-adapter';
import { ToolsmithModule } from './toolsmith.module';
import { TOOLSMITH_SESSION_SERVICE } from './toolsmith.tokens';
import type { ToolsmithModuleOptions } from './toolsmith-module-options.interface';

@Injectable()
class Inventory {
  readonly stock = new Map([['tea', 3]]);
}

@Injectable({ scope: Scope.REQUEST })
class RunTag {
  readonly id = randomUUID();
  constructor(@Inject(REQUEST) readonly run: ResolutionScope) {}
}

@Toolset({ prefix: 'shop_' })
@Injectable()
class ShopTools {
  constructor(
    private readonly inventory: Inventory,
    private readonly tag: RunTag,
  ) {}

  @Tool({ description: 'Stock of a product.' })
  stock(@Param('sku') sku: string) {
    const count = this.inventory.stock.get(sku);
    if (count === undefined) throw new NotFoundException(`No product ${sku}.`);
    return { sku, count };
  }

  @Tool({ description: 'Which run this is.' })
  whoRuns() {
    return { tag: this.tag.id, userId: this.tag.run.userId };
  }
}

@Toolset()
@Injectable()
class ClockTools {
  @Tool({ description: 'The time.' })
  now() {
    return { now: 'noon' };
  }
}

@Module({ providers: [Inventory, RunTag, ShopTools] })
class ShopModule {}

@Module({ providers: [ClockTools] })
class ClockModule {}

@Injectable()
class CallCounter {
  readonly calls: string[] = [];
}

@Module({ providers: [CallCounter], exports: [CallCounter] })
class CounterModule {}

@Injectable()
class CountingPlugin implements Plugin {
  readonly name = 'counting';
  constructor(private readonly counter: CallCounter) {}

  beforeTool({ tool }: Parameters<BeforeToolCallback>[0]): void {
    this.counter.calls.push(tool.name);
  }
}

const userText = (text: string) => ({ role: 'user' as const, parts: [{ text }] });
const lastResponses = (request: LlmRequest): FunctionResponse[] =>
  (request.contents.at(-1)?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));

/** Calls the tools named in the user's message ("call a, b"), then answers with the tool results as JSON. */
const echoScript: Script = (request) => {
  const responses = lastResponses(request);
  if (responses.length > 0) return JSON.stringify(responses.map((r) => r.response));
  const text = request.contents.at(-1)?.parts[0]?.text ?? '';
  const calls = text.replace(/^call /, '').split(', ').map((spec) => {
    const [name, sku] = spec.split(':');
    return { name, args: sku ? { sku } : {} };
  });
  return { calls };
};

async function start(options: Partial<ToolsmithModuleOptions> = {}, model = new ScriptedModel(echoScript)) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ShopModule,
      ClockModule,
      ToolsmithModule.forRoot({ agent: { name: 'shop', model }, ...options }),
    ],
  }).compile();
  return { moduleRef, runner: moduleRef.get(Runner), model };
}

async function ask(runner: Runner, text: string, userId = 'u1', sessionId = `s-${randomUUID()}`) {
  const events = await collect(runner.run({ userId, sessionId, newMessage: userText(text) }));
  const final = events.at(-1)!;
  expect(final.errorCode).toBeUndefined();
  return { events, answer: JSON.parse(final.text()) as Record<string, unknown>[] };
}

const offered = (model: ScriptedModel) => model.requests[0].tools.map((t) => t.name).sort();

describe('ToolsmithModule', () => {
  let moduleRef: TestingModule | undefined;
  afterEach(async () => {
    await moduleRef?.close();
    moduleRef = undefined;
  });

  it('provides a Runner whose agent gets every discovered tool by default', async () => {
    const started = await start();
    moduleRef = started.moduleRef;
    const { answer } = await ask(started.runner, 'call now');
    expect(answer).toEqual([{ now: 'noon' }]);
    expect(offered(started.model)).toEqual(['now', 'shop_stock', 'shop_whoRuns']);
  });

  it.each([
    ['class', [ClockTools], ['now']],
    ['toolset prefix', [{ prefix: 'shop_' }], ['shop_stock', 'shop_whoRuns']],
    ['filter', [{ filter: (tool: { name: string }) => tool.name.endsWith('stock') }], ['shop_stock']],
  ])('assigns tools to the agent by %s', async (_how, tools, expected) => {
    const model = new ScriptedModel(['ok']);
    const started = await start({ agent: { name: 'shop', model, tools } as ToolsmithModuleOptions['agent'] }, model);
    moduleRef = started.moduleRef;
    await collect(started.runner.run({ userId: 'u', sessionId: 's', newMessage: userText('hi') }));
    expect(offered(model)).toEqual(expected);
  });

  it('runs tools on Nest-built instances with their injected dependencies', async () => {
    const started = await start();
    moduleRef = started.moduleRef;
    const { answer } = await ask(started.runner, 'call shop_stock:tea');
    expect(answer).toEqual([{ sku: 'tea', count: 3 }]);
  });

  it('resolves request-scoped dependencies once per run, never shared between concurrent runs', async () => {
    // Model latency keeps both runs in flight at once.
    const started = await start({}, new ScriptedModel(echoScript, { latencyMs: 5 }));
    moduleRef = started.moduleRef;
    const [alice, bob] = await Promise.all([
      ask(started.runner, 'call shop_whoRuns, shop_whoRuns', 'alice'),
      ask(started.runner, 'call shop_whoRuns, shop_whoRuns', 'bob'),
    ]);
    // Both calls of one run share the instance; the two runs do not.
    expect(alice.answer[0]).toEqual(alice.answer[1]);
    expect(bob.answer[0]).toEqual(bob.answer[1]);
    expect(alice.answer[0].tag).not.toBe(bob.answer[0].tag);
    expect([alice.answer[0].userId, bob.answer[0].userId]).toEqual(['alice', 'bob']);
  });

  it('releases the run’s DI sub-tree when the run ends', async () => {
    const started = await start();
    moduleRef = started.moduleRef;
    const release = jest.spyOn(started.moduleRef.get(NestContainerAdapter), 'release');
    const { events } = await ask(started.runner, 'call shop_whoRuns');
    expect(release).toHaveBeenCalledWith(events[0].invocationId);
  });

  it('sends a thrown HttpException to the model as an error response with status and message', async () => {
    const started = await start();
    moduleRef = started.moduleRef;
    await ask(started.runner, 'call shop_stock:coffee');
    const [response] = lastResponses(started.model.requests[1]);
    expect(response).toEqual({
      id: expect.any(String),
      name: 'shop_stock',
      isError: true,
      response: {
        error: { code: 'HTTP_EXCEPTION', message: 'The tool failed with HTTP 404: No product coffee.' },
      },
    });
  });

  it('builds plugin classes with Nest (forRootAsync) and binds their methods', async () => {
    const model = new ScriptedModel(echoScript);
    moduleRef = await Test.createTestingModule({
      imports: [
        ShopModule,
        ToolsmithModule.forRootAsync({
          imports: [CounterModule],
          inject: [CallCounter],
          useFactory: (counter: CallCounter) => ({
            appName: 'async-shop',
            agent: { name: 'shop', model, callbacks: { afterTool: ({ tool }) => void counter.calls.push(`after ${tool.name}`) } },
            plugins: [CountingPlugin],
          }),
          plugins: [CountingPlugin],
        }),
      ],
    }).compile();
    const runner = moduleRef.get(Runner);
    expect(runner.appName).toBe('async-shop');
    await ask(runner, 'call shop_stock:tea');
    expect(moduleRef.get(CallCounter).calls).toEqual(['shop_stock', 'after shop_stock']);
  });

  it('exposes the session service the runner uses', async () => {
    const started = await start();
    moduleRef = started.moduleRef;
    await ask(started.runner, 'call now', 'u1', 'known');
    const sessions = started.moduleRef.get(TOOLSMITH_SESSION_SERVICE);
    expect(await sessions.getSession({ appName: 'toolsmith', userId: 'u1', sessionId: 'known' })).toBeDefined();
  });

  it('accepts an agent factory that receives the discovered toolsets', async () => {
    const model = new ScriptedModel(['ok']);
    const started = await start({
      agent: (toolsets) => new LlmAgent({ name: 'clock', model, tools: toolsets.filter((t) => t.prefix === undefined).flatMap((t) => t.tools) }),
    }, model);
    moduleRef = started.moduleRef;
    await collect(started.runner.run({ userId: 'u', sessionId: 's', newMessage: userText('hi') }));
    expect(offered(model)).toEqual(['now']);
  });

  it('builds @Toolset classes listed on a hand-built agent with Nest', async () => {
    const model = new ScriptedModel(echoScript);
    const started = await start({ agent: new LlmAgent({ name: 'direct', model, tools: [ShopTools] }) }, model);
    moduleRef = started.moduleRef;
    const { answer } = await ask(started.runner, 'call shop_stock:tea');
    expect(answer).toEqual([{ sku: 'tea', count: 3 }]);
  });

  it('fails at startup when an agent names a class that is not a @Toolset provider', async () => {
    class Unprovided {}
    await expect(
      Test.createTestingModule({
        imports: [ShopModule, ToolsmithModule.forRoot({ agent: { name: 'shop', model: new ScriptedModel([]), tools: [Unprovided] } })],
      }).compile(),
    ).rejects.toThrow(AgentConfigError);
  });

  it('fails at startup when forRootAsync names a plugin class it was not given', async () => {
    await expect(
      Test.createTestingModule({
        imports: [
          ToolsmithModule.forRootAsync({
            useFactory: () => ({ agent: { name: 'a', model: new ScriptedModel([]) }, plugins: [CountingPlugin] }),
          }),
        ],
      }).compile(),
    ).rejects.toMatchObject({ code: 'PLUGIN_NOT_REGISTERED' });
  });

  it('registers a second runner with forFeature, injected by name, sharing discovery and sessions', async () => {
    const opsModel = new ScriptedModel(echoScript);
    @Injectable()
    class OpsService {
      constructor(@InjectRunner('ops') readonly runner: Runner) {}
    }
    @Module({
      imports: [ToolsmithModule.forFeature({ name: 'ops', agent: { name: 'ops', model: opsModel, tools: [ClockTools] }, plugins: [CountingPlugin], imports: [CounterModule] })],
      providers: [OpsService],
    })
    class OpsModule {}

    const started = await Test.createTestingModule({
      imports: [ShopModule, ClockModule, OpsModule, ToolsmithModule.forRoot({ agent: { name: 'shop', model: new ScriptedModel(echoScript) } })],
    }).compile();
    moduleRef = started;
    const ops = started.get(OpsService).runner;
    expect(ops).not.toBe(started.get(Runner));
    expect(ops.appName).toBe('ops');
    const { answer } = await ask(ops, 'call now', 'u1', 'ops-session');
    expect(answer).toEqual([{ now: 'noon' }]);
    expect(offered(opsModel)).toEqual(['now']);
    expect(started.get(CallCounter).calls).toEqual(['now']);
    expect(await started.get(TOOLSMITH_SESSION_SERVICE).getSession({ appName: 'ops', userId: 'u1', sessionId: 'ops-session' })).toBeDefined();
  });

  it('closes the runner’s toolsets on shutdown', async () => {
    let closed = false;
    const toolset = { getTools: () => [], close: () => void (closed = true) };
    const started = await start({ agent: { name: 'shop', model: new ScriptedModel([]), tools: [toolset] } });
    await started.moduleRef.close();
    expect(closed).toBe(true);
  });
});
