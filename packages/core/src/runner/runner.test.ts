import { LlmAgent } from '../agents/llm-agent';
import { AgentConfigError } from '../errors/agent-config-error';
import type { ProviderTool } from '../model/provider-tool';
import type { LlmRequest } from '../model/llm-request';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import type { Toolset } from '../tools/toolset';
import { FnTool, collect, sleep, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

const text = (request: LlmRequest) => JSON.stringify(request.contents);

describe('Runner: the model ⇄ tool loop', () => {
  it('answers a plain question with one final event and stores the conversation', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['Hello!']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, instruction: 'Be nice.' }), sessionService });

    const events = await collect(runner, 'Hi');

    expect(events).toHaveLength(1);
    expect(events[0].author).toBe('root');
    expect(events[0].text()).toBe('Hello!');
    expect(events[0].isFinalResponse()).toBe(true);
    expect(model.requests[0].systemInstruction).toBe('Be nice.');
    expect(model.requests[0].contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.events.map((e) => e.author)).toEqual(['user', 'root']);
  });

  it('runs a function call, feeds the response back and ends with the final answer', async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'getWeather', args: { city: 'Paris' } }] }, 'Sunny in Paris.']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [weatherTool()] }) });

    const events = await collect(runner, 'Weather in Paris?');

    expect(events.map((e) => e.isFinalResponse())).toEqual([false, false, true]);
    expect(events[0].functionCalls()).toEqual([{ id: 'c1', name: 'getWeather', args: { city: 'Paris' } }]);
    expect(events[1].functionResponses()).toEqual([{ id: 'c1', name: 'getWeather', response: { status: 'success', report: 'Sunny in Paris' } }]);
    expect(model.requests[0].tools.map((d) => d.name)).toEqual(['getWeather']);
    expect(model.requests[1].contents).toHaveLength(3);
    expect(model.requests[1].contents[2].parts[0].functionResponse?.response).toEqual({ status: 'success', report: 'Sunny in Paris' });
  });

  it('runs parallel calls concurrently and merges their responses in call order', async () => {
    const calls = Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, name: 'slow', args: { i } }));
    const model = new ScriptedModel([{ calls }, 'done']);
    // A barrier: no call may finish before all eight have started (sequential calls would never get
    // there); then they finish in reverse call order, so completion order differs from call order.
    const started: number[] = [];
    const finished: number[] = [];
    let allStarted!: () => void;
    const barrier = new Promise<void>((resolve) => (allStarted = resolve));
    const slow = new FnTool('slow', async (args) => {
      const i = args.i as number;
      started.push(i);
      if (started.length === 8) allStarted();
      await barrier;
      for (let wait = 0; wait < 7 - i; wait++) await Promise.resolve();
      finished.push(i);
      return { i };
    });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [slow] }) });

    const events = await collect(runner, 'go');

    expect(started).toHaveLength(8);
    expect(finished).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    const responses = events[1].functionResponses();
    expect(responses.map((r) => r.id)).toEqual(calls.map((c) => c.id));
    expect(responses.map((r) => r.response.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('never runs more than maxConcurrentToolCalls at once', async () => {
    let inFlight = 0;
    let peak = 0;
    const tool = new FnTool('t', async () => {
      peak = Math.max(peak, ++inFlight);
      await sleep(5);
      inFlight--;
      return {};
    });
    const model = new ScriptedModel([{ calls: Array.from({ length: 6 }, () => ({ name: 't' })) }, 'ok']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool] }), maxConcurrentToolCalls: 2 });

    const events = await collect(runner, 'go');

    expect(peak).toBe(2);
    expect(events[1].functionResponses()).toHaveLength(6);
  });

  it('refuses a call to a tool not offered, listing the available names, and the model recovers', async () => {
    const model = new ScriptedModel([
      { calls: [{ id: 'bad', name: 'getWether', args: { city: 'Oslo' } }] },
      { calls: [{ id: 'good', name: 'getWeather', args: { city: 'Oslo' } }] },
      'Sunny in Oslo.',
    ]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [weatherTool()] }) });

    const events = await collect(runner, 'Oslo?');

    const refused = events[1].functionResponses()[0];
    expect(refused.isError).toBe(true);
    expect(refused.response.error).toMatchObject({ code: 'TOOL_NOT_FOUND' });
    expect((refused.response.error as { message: string }).message).toContain('Available tools: getWeather');
    expect(events[3].functionResponses()[0].response).toEqual({ status: 'success', report: 'Sunny in Oslo' });
    expect(events.at(-1)!.text()).toBe('Sunny in Oslo.');
  });

  it('reports invalid arguments to the model, which retries with corrected ones', async () => {
    let ran = 0;
    const tool = new FnTool('getWeather', (args) => (ran++, { report: `Rain in ${args.city}` }), { parameters: weatherTool().parameters });
    const model = new ScriptedModel([
      { calls: [{ name: 'getWeather', args: { town: 'Rome' } }] },
      (() => ({ calls: [{ name: 'getWeather', args: '{"city":"Rome"}' }] }))(),
      'Rain in Rome.',
    ]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool] }) });

    const events = await collect(runner, 'Rome?');

    const invalid = events[1].functionResponses()[0];
    expect(invalid.isError).toBe(true);
    expect(invalid.response.error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(text(model.requests[1])).toContain('INVALID_ARGUMENTS');
    expect(events[3].functionResponses()[0].response).toEqual({ report: 'Rain in Rome' });
    expect(ran).toBe(1);
  });

  it('ends with a MAX_LLM_CALLS_EXCEEDED error event instead of looping forever', async () => {
    const model = new ScriptedModel(() => ({ calls: [{ name: 'getWeather', args: { city: 'X' } }] }));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [weatherTool()], maxLlmCalls: 3 }) });

    const events = await collect(runner, 'loop');

    expect(model.callCount).toBe(3);
    const last = events.at(-1)!;
    expect(last.errorCode).toBe('MAX_LLM_CALLS_EXCEEDED');
    expect(last.isFinalResponse()).toBe(true);
  });

  it('asks a dynamic toolset per request and runs processRequest hooks', async () => {
    const seen: string[] = [];
    const toolset: Toolset = {
      getTools: (ctx) => {
        seen.push(ctx.userId);
        return ctx.state.get('vip') ? [weatherTool(), new FnTool('secret', () => ({}))] : [weatherTool()];
      },
    };
    const hooked = new FnTool('hooked', () => ({}));
    hooked.processRequest = (_ctx, request) => {
      request.systemInstruction = `${request.systemInstruction ?? ''}[hooked]`;
    };
    const model = new ScriptedModel([{ calls: [{ name: 'secret' }] }, 'ok']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [toolset, hooked], instruction: 'I' }) });

    const events = await collect(runner, 'hi');

    expect(seen).toEqual(['u1', 'u1']);
    expect(model.requests[0].tools.map((d) => d.name).sort()).toEqual(['getWeather', 'hooked']);
    expect(model.requests[0].systemInstruction).toBe('I[hooked]');
    expect(events[1].functionResponses()[0].response.error).toMatchObject({ code: 'TOOL_NOT_FOUND' });
  });

  it('sends the same declaration objects every turn for static tools', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'getWeather', args: { city: 'A' } }] }, 'ok']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [weatherTool()] }) });
    await collect(runner, 'hi');
    expect(model.requests[0].tools[0]).toBe(model.requests[1].tools[0]);
  });

  it('passes provider tools through and refuses one of another provider at startup', async () => {
    const search: ProviderTool = { kind: 'provider-tool', provider: 'scripted', name: 'search', config: { type: 'search' } };
    const model = new ScriptedModel(['ok']);
    await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [search] }) }), 'hi');
    expect(model.requests[0].providerTools).toEqual([search]);

    const foreign: ProviderTool = { ...search, provider: 'gemini' };
    expect(() => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [foreign] }) })).toThrow(AgentConfigError);
  });

  it('refuses duplicate tool names at startup', () => {
    const agent = new LlmAgent({ name: 'root', model: new ScriptedModel([]), tools: [weatherTool(), weatherTool()] });
    expect(() => new Runner({ appName: 'app', agent })).toThrow(/two tools named "getWeather"/);
  });

  it('turns a model failure without recovery into an error event', async () => {
    const model = new ScriptedModel([new Error('socket hang up')]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }) });

    const events = await collect(runner, 'hi');

    expect(events).toHaveLength(1);
    expect(events[0].errorCode).toBe('PROVIDER_ERROR');
    expect(events[0].errorMessage).toContain('socket hang up');
  });

  it('streams partial events, stores only the complete response', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['Hello there, streaming world'], { streamChunkChars: 10 });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }), sessionService });

    const events = await collect(runner, 'hi', { streaming: true });

    expect(events.filter((e) => e.partial).map((e) => e.text())).toEqual(['Hello ther', 'e, streami', 'ng world']);
    expect(events.at(-1)!.text()).toBe('Hello there, streaming world');
    expect(events.filter((e) => e.isFinalResponse())).toHaveLength(1);
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.events).toHaveLength(2);
  });

  it('ends the invocation after a long-running tool returned its initial result', async () => {
    const start = new FnTool('startExport', () => ({ status: 'pending', ticket: 'T1' }), { longRunning: true });
    const model = new ScriptedModel([{ calls: [{ id: 'lr', name: 'startExport' }] }, 'never']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [start] }) });

    const events = await collect(runner, 'export');

    expect(model.callCount).toBe(1);
    expect(events.at(-1)!.longRunningToolIds).toEqual(['lr']);
    expect(events.at(-1)!.isFinalResponse()).toBe(true);
    expect(model.requests[0].tools[0].description).toContain('long-running');
  });

  it('ends the invocation when a call needs confirmation, recording the request on the event', async () => {
    let ran = false;
    const refund = new FnTool('refund', () => (ran = true), { requireConfirmation: true });
    const model = new ScriptedModel([{ calls: [{ id: 'r1', name: 'refund' }] }, 'never']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [refund] }) });

    const events = await collect(runner, 'refund me');

    expect(ran).toBe(false);
    expect(model.callCount).toBe(1);
    expect(events.at(-1)!.actions.requestedToolConfirmations).toHaveProperty('r1');
  });

  it('ends the turn without another model call when a tool sets skipSummarization', async () => {
    const tool = new FnTool('report', (_a, ctx) => {
      ctx.actions.skipSummarization = true;
      return { table: '…' };
    });
    const model = new ScriptedModel([{ calls: [{ name: 'report' }] }, 'never']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool] }) });

    const events = await collect(runner, 'report');

    expect(model.callCount).toBe(1);
    expect(events.at(-1)!.isFinalResponse()).toBe(true);
    expect(events.at(-1)!.functionResponses()[0].response).toEqual({ table: '…' });
  });

  it('stores the final answer under outputKey', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: new ScriptedModel(['42']), outputKey: 'answer' }), sessionService });
    await collect(runner, 'q');
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state.answer).toBe('42');
  });

  it('stores the final answer under an outputKey named __proto__ as a key, a text or a structured answer', async () => {
    for (const [agent, answer] of [
      [new LlmAgent({ name: 'root', model: new ScriptedModel(['42']), outputKey: '__proto__' }), '42'],
      [new LlmAgent({ name: 'root', model: new ScriptedModel(['{"n":1}']), outputSchema: { type: 'object' }, outputKey: '__proto__' }), { n: 1 }],
    ] as const) {
      const sessionService = new InMemorySessionService();
      await collect(new Runner({ appName: 'app', agent, sessionService }), 'q');
      const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
      expect(session!.state).toEqual(JSON.parse(`{"__proto__":${JSON.stringify(answer)}}`));
    }
  });

  it('closes toolsets on close()', async () => {
    const close = jest.fn();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: new ScriptedModel([]), tools: [{ getTools: () => [], close }] }) });
    await runner.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
