import type { Model } from '../model/model';
import { LlmAgent } from '../agents/llm-agent';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { FnTool, collect, sleep } from './__fixtures__/test-tools';
import { Runner } from './runner';
import { SequentialAgent } from '../agents/sequential-agent';
import { LoopAgent } from '../agents/loop-agent';
import type { BaseAgent } from '../agents/base-agent';
import { RunAbortedError } from '../errors/run-aborted-error';
import { AgentTool } from '../agent-tool/agent-tool';

describe('Runner: state scopes', () => {
  it('shares app: across users, user: across a user\'s sessions, keeps plain keys per session and never stores temp:', async () => {
    const sessionService = new InMemorySessionService();
    const seen: Array<Record<string, unknown>> = [];
    const visit = new FnTool('visit', (_a, ctx) => {
      seen.push(ctx.state.toObject());
      const count = (k: string) => ((ctx.state.get<number>(k) ?? 0) + 1);
      ctx.state.set('app:visits', count('app:visits'));
      ctx.state.set('user:visits', count('user:visits'));
      ctx.state.set('visits', count('visits'));
      ctx.state.set('temp:scratch', 'only now');
      return {};
    });
    const peek = new FnTool('peek', (_a, ctx) => ({ scratch: ctx.state.get('temp:scratch') ?? null }));
    let turn = 0;
    const scripted = new ScriptedModel((request) => {
      // Each invocation: visit, then peek (temp: must still be visible), then answer.
      const last = request.contents.at(-1)!;
      if (last.parts[0].text) return { calls: [{ name: 'visit' }] };
      if (last.parts[0].functionResponse?.name === 'visit') return { calls: [{ name: 'peek' }] };
      return `turn ${++turn}`;
    });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: scripted, tools: [visit, peek] }), sessionService });

    const first = await collect(runner, 'a', { userId: 'alice', sessionId: 's1' });
    await collect(runner, 'b', { userId: 'alice', sessionId: 's2' });
    await collect(runner, 'c', { userId: 'bob', sessionId: 's1' });
    await collect(runner, 'd', { userId: 'alice', sessionId: 's1' });

    expect(first[3].functionResponses()[0].response).toEqual({ scratch: 'only now' });
    expect(first[1].actions.stateDelta).not.toHaveProperty('temp:scratch');
    expect(seen.map((s) => [s['app:visits'] ?? 0, s['user:visits'] ?? 0, s.visits ?? 0])).toEqual([
      [0, 0, 0],
      [1, 1, 0],
      [2, 0, 0],
      [3, 2, 1],
    ]);
    const get = (userId: string, sessionId: string) => sessionService.getSession({ appName: 'app', userId, sessionId });
    expect((await get('alice', 's1'))!.state).toEqual({ 'app:visits': 4, 'user:visits': 3, visits: 2 });
    expect((await get('bob', 's1'))!.state).toEqual({ 'app:visits': 4, 'user:visits': 1, visits: 1 });
    const next = await collect(runner, 'e', { userId: 'alice', sessionId: 's2' });
    expect(next[3].functionResponses()[0].response).toEqual({ scratch: 'only now' });
    expect(JSON.stringify(sessionService.toJSON())).not.toContain('temp:');
  });

  it('gives parallel calls their own deltas, merged in call order', async () => {
    const write = new FnTool('write', (args, ctx) => {
      ctx.state.set('last', args.v);
      ctx.state.set(`k${args.v}`, true);
      return {};
    });
    const model = new ScriptedModel([{ calls: [1, 2, 3].map((v) => ({ name: 'write', args: { v } })) }, 'ok']);
    const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [write] }) }), 'go');
    expect(events[1].actions.stateDelta).toEqual({ last: 3, k1: true, k2: true, k3: true });
    expect(Object.keys(events[1].actions.stateDelta)).toEqual(['last', 'k1', 'k2', 'k3']);
  });
});

describe('Runner: cancellation', () => {
  it('aborting mid-tool reaches the tool, answers every call and leaves the session consistent', async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    // The tool aborts the run itself once it is running: no timer decides when.
    const slow = new FnTool('slow', async (_a, ctx) => {
      ctx.signal.addEventListener('abort', () => (toolSawAbort = true));
      const slept = sleep(10_000, ctx.signal).catch(() => undefined);
      controller.abort(); // while the tool waits
      await slept;
      ctx.state.set('late', true);
      return { finished: true };
    });
    const fast = new FnTool('fast', () => ({ ok: true }));
    const model = new ScriptedModel([{ calls: [{ id: 'f', name: 'fast' }, { id: 's', name: 'slow' }] }, 'after resume']);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [slow, fast] }), sessionService });

    const events = await collect(runner, 'go', { signal: controller.signal });

    expect(toolSawAbort).toBe(true);
    expect(events.at(-1)!.errorCode).toBe('RUN_ABORTED');
    const responses = events[1].functionResponses();
    expect(responses.map((r) => [r.id, r.isError ?? false])).toEqual([['f', false], ['s', true]]);
    expect(responses[1].response.error).toMatchObject({ code: 'RUN_ABORTED' });

    const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
    expect(session.events.map((e) => e.functionCalls().length || e.functionResponses().length || e.text())).toEqual(['go', 2, 2]);
    expect(session.state).not.toHaveProperty('late');
    const resumed = await collect(runner, 'again');
    expect(resumed.at(-1)!.text()).toBe('after resume');
  });

  it('aborting during the model call stores no half-made event', async () => {
    const controller = new AbortController();
    // The run is aborted while the model call is in flight (from inside it); the model still answers.
    const model: Model = {
      provider: 'test',
      modelName: 'mid-call',
      async *generate() {
        controller.abort();
        yield { content: { role: 'model', parts: [{ text: 'too late' }] }, turnComplete: true };
      },
    };
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }), sessionService });

    const events = await collect(runner, 'hi', { signal: controller.signal });

    expect(events.map((e) => e.errorCode)).toEqual(['RUN_ABORTED']);
    const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
    expect(session.events.map((e) => e.author)).toEqual(['user']);
  });

  it('aborting during an onModelError callback ends the run RUN_ABORTED, whatever the callback does then, streaming or not', async () => {
    const outcomes = {
      throws: () => {
        throw new Error('fallback broke');
      },
      recovers: () => ({ content: { role: 'model' as const, parts: [{ text: 'fallback' }] }, turnComplete: true }),
      returnsNothing: () => undefined,
    };
    for (const [name, outcome] of Object.entries(outcomes)) {
      for (const streaming of [false, true]) {
        const controller = new AbortController();
        const later: string[] = [];
        const model = new ScriptedModel([new Error('rate limited')]);
        const onModelError = [
          ({ context }: { context: { state: { set(key: string, value: unknown): void } } }) => {
            context.state.set('fallback', name);
            controller.abort();
            return outcome();
          },
          () => void later.push(name),
        ];
        const sessionService = new InMemorySessionService();
        const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, callbacks: { onModelError } }), sessionService });
        const events = await collect(runner, 'hi', { signal: controller.signal, streaming });
        expect([name, events.filter((e) => !e.partial).map((e) => e.errorCode)]).toEqual([name, ['RUN_ABORTED']]);
        const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
        expect(session.events.map((e) => e.author)).toEqual(['user']);
        expect(session.state).toEqual({});
        expect(later).toEqual([]);
      }
    }
  });

  it('aborting during a beforeModel callback ends the run RUN_ABORTED, whatever the callback does then; the model is not called', async () => {
    const outcomes = {
      throws: () => {
        throw new Error('audit store down');
      },
      answers: () => ({ content: { role: 'model' as const, parts: [{ text: 'cached' }] }, turnComplete: true }),
    };
    for (const [name, outcome] of Object.entries(outcomes)) {
      for (const streaming of [false, true]) {
        const controller = new AbortController();
        const model = new ScriptedModel(['x']);
        const beforeModel = ({ context }: { context: { state: { set(key: string, value: unknown): void } } }) => {
          context.state.set('before', name);
          controller.abort();
          return outcome();
        };
        const sessionService = new InMemorySessionService();
        const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, callbacks: { beforeModel } }), sessionService });
        const events = await collect(runner, 'hi', { signal: controller.signal, streaming });
        expect([name, events.filter((e) => !e.partial).map((e) => e.errorCode)]).toEqual([name, ['RUN_ABORTED']]);
        const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
        expect(session.events.map((e) => e.author)).toEqual(['user']);
        expect(session.state).toEqual({});
        expect(model.callCount).toBe(0);
      }
    }
  });

  it('aborting during an afterModel callback ends the run RUN_ABORTED with the model\'s counts, whatever the callback does then; nothing of it is kept', async () => {
    const outcomes = {
      throws: () => {
        throw new Error('audit store down');
      },
      replaces: () => ({ content: { role: 'model' as const, parts: [{ text: 'replaced' }] }, turnComplete: true }),
      returnsNothing: () => undefined,
      awaitsThenThrows: async () => {
        await Promise.resolve();
        throw new Error('late');
      },
    };
    for (const [name, outcome] of Object.entries(outcomes)) {
      for (const streaming of [false, true]) {
        const controller = new AbortController();
        const later: string[] = [];
        const model = new ScriptedModel([{ content: { role: 'model', parts: [{ text: 'x' }] }, turnComplete: true, usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 } }]);
        const afterModel = [
          ({ context }: { context: { state: { set(key: string, value: unknown): void } } }) => {
            context.state.set('after', name);
            controller.abort();
            return outcome();
          },
          () => void later.push(name),
        ];
        const sessionService = new InMemorySessionService();
        const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, callbacks: { afterModel } }), sessionService });
        const events = (await collect(runner, 'hi', { signal: controller.signal, streaming })).filter((e) => !e.partial);
        expect([name, streaming, events.map((e) => e.errorCode)]).toEqual([name, streaming, ['RUN_ABORTED']]);
        expect(events[0].usage?.inputTokens).toBe(5);
        expect(events[0].actions.stateDelta).toEqual({});
        const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
        expect(session.events.map((e) => e.author)).toEqual(['user']);
        expect(session.state).toEqual({});
        expect(later).toEqual([]);
      }
    }
  });

  it('an abort a model callback queued (a microtask) after it returned is not one during it: its answer and writes are kept, as its later writes are dropped', async () => {
    const text = (t: string) => ({ content: { role: 'model' as const, parts: [{ text: t }] }, turnComplete: true });
    type Ctx = { context: { state: { set(key: string, value: unknown): void } } };
    const cases = {
      afterModelNothing: { model: ['model'], answer: 'model', hook: 'afterModel', returns: () => undefined },
      afterModelReplaces: { model: ['model'], answer: 'replaced', hook: 'afterModel', returns: () => text('replaced') },
      beforeModelAnswers: { model: ['never'], answer: 'cached', hook: 'beforeModel', returns: () => text('cached') },
      onModelErrorAnswers: { model: [new Error('rate limited')], answer: 'fallback', hook: 'onModelError', returns: () => text('fallback') },
    };
    for (const [name, { model: script, answer, hook, returns }] of Object.entries(cases)) {
      const controller = new AbortController();
      const callback = ({ context }: Ctx) => {
        context.state.set('k', name);
        queueMicrotask(() => {
          controller.abort();
          context.state.set('late', true); // after it settled: dropped
        });
        return returns();
      };
      const sessionService = new InMemorySessionService();
      const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(script), callbacks: { [hook]: callback } });
      const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'hi', { signal: controller.signal });
      expect([name, events.map((e) => e.errorCode ?? e.text())]).toEqual([name, [answer]]);
      const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
      expect([name, session.events.map((e) => e.author), session.state]).toEqual([name, ['user', 'root'], { k: name }]);
    }
  });

  it('a model callback that throws RunAbortedError with no abort ends the run RUN_ABORTED, not stored, with none of its state writes', async () => {
    for (const hook of ['beforeModel', 'onModelError', 'afterModel'] as const) {
      const model = new ScriptedModel([hook === 'onModelError' ? new Error('rate limited') : 'x']);
      const callback = ({ context }: { context: { state: { set(key: string, value: unknown): void } } }) => {
        context.state.set('k', hook);
        throw new RunAbortedError('gave up');
      };
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, callbacks: { [hook]: callback } }), sessionService });
      const events = await collect(runner, 'hi');
      expect([hook, events.map((e) => e.errorCode)]).toEqual([hook, ['RUN_ABORTED']]);
      expect(events[0].actions.stateDelta).toEqual({});
      const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
      expect(session.events.map((e) => e.author)).toEqual(['user']);
      expect(session.state).toEqual({});
    }
  });

  it('a tool, a beforeTool callback or an AgentTool\'s inner agent that throws RunAbortedError with no abort fails its call TOOL_EXECUTION_FAILED, and the run goes on', async () => {
    const cases = [
      ['sync tool', () => new FnTool('t', () => { throw new RunAbortedError('gave up'); }), {}],
      ['async tool', () => new FnTool('t', async () => { await Promise.resolve(); throw new RunAbortedError('gave up'); }), {}],
      ['beforeTool', () => new FnTool('t', () => ({ ok: true })), { beforeTool: () => { throw new RunAbortedError('gave up'); } }],
      // An AgentTool whose inner agent's run ended RUN_ABORTED (its model callback threw one).
      ['AgentTool', () => new AgentTool({ agent: new LlmAgent({ name: 't', model: new ScriptedModel(['inner']), callbacks: { afterModel: () => { throw new RunAbortedError('gave up'); } } }) }), {}],
    ] as const;
    for (const [label, tool, callbacks] of cases) {
      const model = new ScriptedModel([{ calls: [{ name: 't', args: label === 'AgentTool' ? { request: 'go' } : {} }] }, 'answered']);
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool()], callbacks }) });
      const events = await collect(runner, 'hi');
      const response = events[1].functionResponses()[0].response as { error?: { code: string } };
      expect([label, response.error?.code, events.at(-1)!.text()]).toEqual([label, 'TOOL_EXECUTION_FAILED', 'answered']);
    }
  });

  it('aborted while a workflow\'s sub-agent\'s model closes: its response is stored, and the run ends RUN_ABORTED when a sub-agent or round was still to run', async () => {
    const closingAborts = (name: string, controller: AbortController): Model => ({
      provider: 'scripted',
      modelName: 'scripted-model',
      async *generate() {
        try {
          yield { content: { role: 'model', parts: [{ text: name }] }, turnComplete: true };
        } finally {
          controller.abort();
        }
      },
    });
    const cases: [string, (a: LlmAgent, b: LlmAgent) => BaseAgent, string[]][] = [
      ['sequential, a first', (a, b) => new SequentialAgent({ name: 'flow', subAgents: [a, b] }), ['a', 'RUN_ABORTED']],
      ['sequential, a last', (a) => new SequentialAgent({ name: 'flow', subAgents: [a] }), ['a']],
      ['nested, a last of the inner', (a, b) => new SequentialAgent({ name: 'flow', subAgents: [new SequentialAgent({ name: 'inner', subAgents: [a] }), b] }), ['a', 'RUN_ABORTED']],
      ['loop, a round to go', (a) => new LoopAgent({ name: 'flow', subAgents: [a], maxIterations: 2 }), ['a', 'RUN_ABORTED']],
      ['loop, the last round', (a) => new LoopAgent({ name: 'flow', subAgents: [a], maxIterations: 1 }), ['a']],
    ];
    for (const [label, make, expected] of cases) {
      const controller = new AbortController();
      const b = new ScriptedModel(['b']);
      const sessionService = new InMemorySessionService();
      const agent = make(new LlmAgent({ name: 'a', model: closingAborts('a', controller) }), new LlmAgent({ name: 'b', model: b }));
      const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'hi', { signal: controller.signal });
      expect([label, events.map((e) => e.errorCode ?? e.text())]).toEqual([label, expected]);
      if (expected.length > 1) expect(events.at(-1)!.author).toBe('flow');
      const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
      expect([label, session.events.map((e) => e.author)]).toEqual([label, ['user', 'a']]);
      expect(b.callCount).toBe(0);
    }
  });

  it('an already-aborted signal runs nothing', async () => {
    const model = new ScriptedModel(['x']);
    const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }) }), 'hi', { signal: AbortSignal.abort() });
    expect(events.map((e) => e.errorCode)).toEqual(['RUN_ABORTED']);
    expect(model.callCount).toBe(0);
  });
});

describe('Runner: aborted before a tool step', () => {
  // The caller aborts on the model's call event, before the step starts: docs/runner.md (Cancellation).
  for (const [kind, calls] of [['sync', 1], ['async', 1], ['sync', 2], ['async', 2]] as const) {
    it(`starts none of its calls (${calls} ${kind} call${calls > 1 ? 's' : ''}) and answers each RUN_ABORTED`, async () => {
      const controller = new AbortController();
      const ran: unknown[] = [];
      const charge = (args: Record<string, unknown>, ctx: { state: { set(key: string, value: unknown): void } }) => {
        ran.push(args.n);
        ctx.state.set(`charged${args.n as number}`, true);
        return { charged: true };
      };
      const tool = new FnTool('charge', kind === 'sync' ? charge : async (args, ctx) => charge(args, ctx));
      const ids = calls === 1 ? ['c1'] : ['c1', 'c2'];
      const model = new ScriptedModel([{ calls: ids.map((id, i) => ({ id, name: 'charge', args: { n: i + 1 } })) }, 'done']);
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool] }), sessionService });

      const events = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'pay' }] }, signal: controller.signal })) {
        events.push(event);
        if (event.functionCalls().length > 0) controller.abort();
      }

      expect(ran).toEqual([]);
      expect(events.at(-1)!.errorCode).toBe('RUN_ABORTED');
      const responses = events[1].functionResponses();
      expect(responses.map((r) => [r.id, (r.response.error as { code?: string } | undefined)?.code])).toEqual(ids.map((id) => [id, 'RUN_ABORTED']));
      const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
      expect(session.state).toEqual({});
      expect(session.events.map((e) => e.functionCalls().length || e.functionResponses().length || e.text())).toEqual(['pay', calls, calls]);
    });
  }
});
