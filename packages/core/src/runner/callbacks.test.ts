import { LlmAgent } from '../agents/llm-agent';
import type { Plugin } from '../agents/plugin';
import type { CallbackContext } from '../agents/callback-context';
import { ProviderError } from '../errors/provider-errors';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { FnTool, collect, user, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

const callWeather = { calls: [{ id: 'c1', name: 'getWeather', args: { city: 'Paris' } }] };

describe('Runner: callbacks and plugins', () => {
  it('runs plugins before agent callbacks, in order, for every hook', async () => {
    const order: string[] = [];
    const trace = (who: string): Plugin => ({
      name: who,
      beforeModel: () => void order.push(`${who}.beforeModel`),
      afterModel: () => void order.push(`${who}.afterModel`),
      beforeTool: () => void order.push(`${who}.beforeTool`),
      afterTool: () => void order.push(`${who}.afterTool`),
    });
    const model = new ScriptedModel([callWeather, 'done']);
    const agent = new LlmAgent({ name: 'root', model, tools: [weatherTool()], callbacks: trace('agent') });
    const runner = new Runner({ appName: 'app', agent, plugins: [trace('p1'), trace('p2')] });

    await collect(runner, 'hi');

    expect(order.slice(0, 10)).toEqual([
      'p1.beforeModel', 'p2.beforeModel', 'agent.beforeModel',
      'p1.afterModel', 'p2.afterModel', 'agent.afterModel',
      'p1.beforeTool', 'p2.beforeTool', 'agent.beforeTool',
      'p1.afterTool',
    ]);
  });

  it('skips the tool when a beforeTool callback returns a value (later callbacks do not run)', async () => {
    const tool = new FnTool('getWeather', () => {
      throw new Error('must not run');
    });
    const later = jest.fn();
    const model = new ScriptedModel([callWeather, 'cached']);
    const plugin: Plugin = { name: 'cache', beforeTool: ({ args }) => ({ cached: true, city: args.city }) };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool], callbacks: { beforeTool: later } }), plugins: [plugin] });

    const events = await collect(runner, 'hi');

    expect(events[1].functionResponses()[0].response).toEqual({ cached: true, city: 'Paris' });
    expect(later).not.toHaveBeenCalled();
  });

  it('lets afterTool replace a response', async () => {
    const model = new ScriptedModel([callWeather, 'ok']);
    const agent = new LlmAgent({
      name: 'root', model, tools: [weatherTool()],
      callbacks: { afterTool: ({ response }) => ({ ...response, redacted: true }) },
    });
    const events = await collect(new Runner({ appName: 'app', agent }), 'hi');
    expect(events[1].functionResponses()[0].response).toEqual({ status: 'success', report: 'Sunny in Paris', redacted: true });
  });

  it('recovers a thrown tool error through onToolError', async () => {
    const tool = new FnTool('getWeather', () => {
      throw new Error('weather service down');
    });
    const seen: string[] = [];
    const model = new ScriptedModel([callWeather, 'Sorry, using a fallback.']);
    const agent = new LlmAgent({
      name: 'root', model, tools: [tool],
      callbacks: {
        onToolError: ({ error }) => {
          seen.push(error.code, error.message);
          return { status: 'fallback', report: 'probably sunny' };
        },
      },
    });

    const events = await collect(new Runner({ appName: 'app', agent }), 'hi');

    expect(seen).toEqual(['TOOL_EXECUTION_FAILED', 'Tool "getWeather" failed: weather service down']);
    const response = events[1].functionResponses()[0];
    expect(response.isError).toBeUndefined();
    expect(response.response).toEqual({ status: 'fallback', report: 'probably sunny' });
  });

  it('uses a beforeModel response instead of calling the model, and its state writes land on the event', async () => {
    const model = new ScriptedModel([]);
    const agent = new LlmAgent({
      name: 'root', model,
      callbacks: {
        beforeModel: ({ context, request }) => {
          context.state.set('guarded', true);
          return request.contents.length > 0 ? { content: { role: 'model', parts: [{ text: 'blocked' }] } } : undefined;
        },
      },
    });
    const sessionService = new InMemorySessionService();

    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'bad words');

    expect(model.callCount).toBe(0);
    expect(events[0].text()).toBe('blocked');
    expect(events[0].actions.stateDelta).toEqual({ guarded: true });
    expect((await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!.state.guarded).toBe(true);
  });

  it('lets afterModel replace the model response', async () => {
    const agent = new LlmAgent({
      name: 'root', model: new ScriptedModel(['raw']),
      callbacks: { afterModel: ({ response }) => ({ ...response, content: { role: 'model', parts: [{ text: 'edited' }] } }) },
    });
    const events = await collect(new Runner({ appName: 'app', agent }), 'hi');
    expect(events[0].text()).toBe('edited');
  });

  it('recovers a model error through onModelError (plugin first)', async () => {
    const model = new ScriptedModel([new ProviderError('SERVER_ERROR', 'upstream 503', { provider: 'scripted', statusCode: 503 })]);
    const agentHandler = jest.fn();
    const plugin: Plugin = {
      name: 'fallback',
      onModelError: ({ error }) => ({ content: { role: 'model', parts: [{ text: `fallback after ${error.code}` }] } }),
    };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, callbacks: { onModelError: agentHandler } }), plugins: [plugin] });

    const events = await collect(runner, 'hi');

    expect(events).toHaveLength(1);
    expect(events[0].text()).toBe('fallback after SERVER_ERROR');
    expect(agentHandler).not.toHaveBeenCalled();
  });

  it('turns a throwing callback into an error event, not a rejected iterator', async () => {
    const agent = new LlmAgent({
      name: 'root', model: new ScriptedModel(['x']),
      callbacks: {
        beforeModel: () => {
          throw new Error('bug in callback');
        },
      },
    });
    const events = await collect(new Runner({ appName: 'app', agent }), 'hi');
    expect(events.at(-1)!.errorCode).toBe('INTERNAL_ERROR');
    expect(events.at(-1)!.errorMessage).toContain('bug in callback');
  });

  it("a model callback's context writes nothing into the call's event once the callback settled, returned or thrown, streaming or not", async () => {
    type Context = CallbackContext;
    for (const hook of ['beforeModel', 'onModelError', 'afterModel'] as const) {
      for (const throws of [false, true]) {
        for (const streaming of [false, true]) {
          const contexts: Context[] = [];
          const first = ({ context }: { context: Context }) => {
            contexts.push(context);
            context.state.set('a', 'A');
          };
          const second = ({ context }: { context: Context }) => {
            contexts.push(context);
            // The first callback's writes are read; its context's late write (the first settled) is not kept.
            context.state.set('b', context.state.get('a'));
            contexts[0].state.set('lateFirst', 1);
            if (throws) throw new Error('callback broke');
          };
          const model = new ScriptedModel([hook === 'onModelError' ? new Error('rate limited') : 'x']);
          const sessionService = new InMemorySessionService();
          const agent = new LlmAgent({ name: 'root', model, callbacks: { [hook]: [first, second] } });
          const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'hi', { streaming });
          // After the run: a timer or an unawaited promise of the callbacks writes.
          for (const context of contexts) {
            context.state.set('late', 1);
            context.actions.stateDelta.direct = 1;
            context.actions.escalate = true;
          }
          const last = events.filter((e) => !e.partial).at(-1)!;
          const label = `${hook} throws=${throws} streaming=${streaming}`;
          expect([label, last.actions.stateDelta, last.actions.escalate]).toEqual([label, { a: 'A', b: 'A' }, undefined]);
          const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
          expect([label, session.events.at(-1)!.actions.stateDelta, session.state]).toEqual([label, { a: 'A', b: 'A' }, { a: 'A', b: 'A' }]);
        }
      }
    }
  });

  it("a model callback's write one microtask after it settled is dropped: a synchronous return's queued microtask or then, a thenable's write after resolving", async () => {
    type Context = CallbackContext;
    const ways: Record<string, (context: Context) => unknown> = {
      microtask: (context) => void queueMicrotask(() => context.state.set('late', 1)),
      then: (context) => void Promise.resolve().then(() => context.state.set('late', 1)),
      thenable: (context) => ({
        then(resolve: (value: undefined) => void) {
          resolve(undefined);
          context.state.set('late', 1);
        },
      }),
    };
    for (const hook of ['beforeModel', 'onModelError', 'afterModel'] as const) {
      for (const [way, write] of Object.entries(ways)) {
        const callback = ({ context }: { context: Context }) => {
          context.state.set('kept', 1);
          return write(context);
        };
        const model = new ScriptedModel([hook === 'onModelError' ? new Error('rate limited') : 'x', 'y']);
        const sessionService = new InMemorySessionService();
        const agent = new LlmAgent({ name: 'root', model, callbacks: { [hook]: callback } });
        const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'hi');
        const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
        expect([hook, way, events.at(-1)!.actions.stateDelta, session.state]).toEqual([hook, way, { kept: 1 }, { kept: 1 }]);
      }
    }
  });
});

describe('Runner: plugins and callbacks are kept as given', () => {
  it('plugins that are no array, and hooks that are neither a function nor a list of functions, fail at construction with AGENT_CONFIG_INVALID naming them', () => {
    const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['ok']) });
    const build = (plugins: unknown) => () => new Runner({ appName: 'app', agent, plugins: plugins as Plugin[] });
    expect(build(5)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins option is number') }));
    expect(build({})).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins option is object') }));
    expect(build([{ name: 'p', beforeModel: 5 }])).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[0].beforeModel is number') }));
    expect(build([{ name: 'p' }, { name: 'q', afterTool: [() => undefined, null] }])).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[1].afterTool[1] is null') }),
    );
    const { proxy, revoke } = Proxy.revocable({ name: 'p' }, {});
    revoke();
    expect(build([proxy])).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[0].beforeModel cannot be read') }));
    expect(build([{ name: 'p', beforeModel: () => undefined, onToolError: [() => undefined] }])).not.toThrow();
  });

  it('plugins are read by index and length, never through their iterator; an array that cannot be read (a revoked Proxy) fails with AGENT_CONFIG_INVALID', async () => {
    const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['ok', 'ok']) });
    const build = (plugins: unknown) => () => new Runner({ appName: 'app', agent, plugins: plugins as Plugin[] });
    const seen: string[] = [];
    // An iterator that gives another plugin than the array holds: the runner keeps the one at index 0.
    const held: Plugin = { name: 'held', beforeModel: () => void seen.push('held') };
    const swapped = [held];
    Object.defineProperty(swapped, Symbol.iterator, { value: function* () { yield { name: 'other', beforeModel: () => void seen.push('other') }; } });
    const runner = new Runner({ appName: 'app', agent, plugins: swapped });
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) void event;
    expect(seen).toEqual(['held']);
    // An iterator that throws is never asked.
    const throwing = [{ name: 'p' }];
    Object.defineProperty(throwing, Symbol.iterator, { value: () => { throw new Error('no iterator'); } });
    expect(build(throwing)).not.toThrow();
    const { proxy, revoke } = Proxy.revocable([{ name: 'p' }], {});
    revoke();
    expect(build(proxy)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins option is an array that cannot be read') }));
    const badLength = new Proxy([{ name: 'p' }], { get: (target, key) => (key === 'length' ? 'many' : Reflect.get(target, key)) });
    expect(build(badLength)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins option is an array that cannot be read (its length is string)') }));
 
    // What a trap throws is redacted, as an error event's message is.
    const key = `sk-ant-api03-${'A'.repeat(40)}`;
    const leaky = new Proxy([{ name: 'p' }, { name: 'q' }], { get: (target, index) => { if (index === '1') throw new Error(`secret ${key}`); return Reflect.get(target, index); } });
    expect(build(leaky)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins option is an array that cannot be read (secret ') }));
    expect(build(leaky)).not.toThrow(expect.objectContaining({ message: expect.stringContaining(key) }));
    const leakyHook = { name: 'p', get beforeModel(): never { throw new Error(`secret ${key}`); } };
    expect(build([leakyHook])).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[0].beforeModel cannot be read (secret ') }));
    expect(build([leakyHook])).not.toThrow(expect.objectContaining({ message: expect.stringContaining(key) }));
  });

  it("an agent's callbacks whose hook is neither a function nor a list of functions fail at construction with AGENT_CONFIG_INVALID", () => {
    const model = new ScriptedModel(['ok']);
    expect(() => new LlmAgent({ name: 'root', model, callbacks: { afterModel: 'x' } as never })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('The agent "root"\'s callbacks.afterModel is string') }),
    );
    expect(() => new LlmAgent({ name: 'root', model, callbacks: 7 as never })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID' }));
  });

  it("a plugin's hooks are read once, at construction: a getter that answers otherwise later changes nothing", async () => {
    let reads = 0;
    const seen: string[] = [];
    const plugin = {
      name: 'flip',
      get beforeModel() {
        reads++;
        return reads === 1 ? () => void seen.push('checked hook') : 5;
      },
    };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: new ScriptedModel(['ok', 'ok']) }), plugins: [plugin as unknown as Plugin] });
    for (const text of ['one', 'two']) {
      const events = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user(text) })) events.push(event);
      expect(events.map((event) => event.errorCode ?? event.text())).toEqual(['ok']);
    }
    expect(seen).toEqual(['checked hook', 'checked hook']);
    expect(reads).toBe(1);
  });

  it('hooks of a class instance, a plugin or an agent\'s callbacks, are called with it as this', async () => {
    class Counter {
      readonly name = 'counter';
      calls = 0;
      beforeModel() {
        this.calls++;
        return undefined;
      }
      afterTool = [
        function (this: Counter) {
          this.calls += 10;
          return undefined;
        },
      ];
    }
    const plugin = new Counter();
    const callbacks = new Counter();
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'note' }] }, 'done']);
    const agent = new LlmAgent({ name: 'root', model, tools: [new FnTool('note', () => ({ ok: true }))], callbacks });
    const runner = new Runner({ appName: 'app', agent, plugins: [plugin] });
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('go') })) expect(event.errorCode).toBeUndefined();
    expect([plugin.calls, callbacks.calls]).toEqual([12, 12]);
  });

  it('a plugin that is no object (null, a hole, a string) fails at construction with AGENT_CONFIG_INVALID naming its index', () => {
    const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['ok']) });
    const audit: Plugin = { name: 'audit' };
    for (const [plugins, index] of [[[null], 0], [[audit, , audit], 1], [[audit, 'audit'], 1]] as const) {
      expect(() => new Runner({ appName: 'app', agent, plugins: plugins as unknown as Plugin[] })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining(`plugins[${index}]`) }));
    }
    expect(() => new Runner({ appName: 'app', agent, plugins: [audit] })).not.toThrow();
  });

  const scripted = () => new ScriptedModel((request) => (request.contents.at(-1)!.parts[0].functionResponse ? 'done' : callWeather));
  const logging = (log: string[], who: string): Plugin => ({ name: who, beforeTool: () => void log.push(who), beforeModel: () => void log.push(`${who} model`) });

  it('a runner built with a plugins array that was pushed to runs the new plugin; the first runner does not', async () => {
    const log: string[] = [];
    const agent = new LlmAgent({ name: 'root', model: scripted(), tools: [weatherTool()] });
    const plugins: Plugin[] = [logging(log, 'audit')];
    const first = new Runner({ appName: 'app', agent, plugins });
    await collect(first, 'a', { sessionId: 's1' });
    plugins.push({ name: 'guard', beforeTool: () => (log.push('guard'), { error: 'blocked by guard' }) });
    const second = new Runner({ appName: 'app', agent, plugins });
    const events = await collect(second, 'b', { sessionId: 's2' });
    await collect(first, 'c', { sessionId: 's3' }); // its plugins are still [audit]

    expect(log).toEqual(['audit model', 'audit', 'audit model', 'audit model', 'audit', 'guard', 'audit model', 'audit model', 'audit', 'audit model']);
    expect(events[1].functionResponses()[0].response).toEqual({ error: 'blocked by guard' });
  });

  it('an agent keeps its callbacks: a later change to the object or list given has no effect, and a new agent given it gets the new ones', async () => {
    const log: string[] = [];
    const beforeTool = [() => void log.push('v1')];
    const callbacks: { beforeTool: Array<() => void> } = { beforeTool };
    const first = new LlmAgent({ name: 'root', model: scripted(), tools: [weatherTool()], callbacks });
    await collect(new Runner({ appName: 'app', agent: first }), 'a', { sessionId: 's1' });
    beforeTool.push(() => void log.push('pushed'));
    callbacks.beforeTool = [() => void log.push('v2')];
    const second = new LlmAgent({ name: 'root', model: scripted(), tools: [weatherTool()], callbacks });
    await collect(new Runner({ appName: 'app', agent: second }), 'b', { sessionId: 's2' });
    await collect(new Runner({ appName: 'app', agent: first }), 'c', { sessionId: 's3' });

    expect(log).toEqual(['v1', 'v2', 'v1']);
    expect(Object.isFrozen(first.callbacks)).toBe(true);
  });
});
