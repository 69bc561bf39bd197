import { LlmAgent } from '../agents/llm-agent';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { withBilledUsage } from '../model/billed-usage';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { ScriptedModel, type Script } from '../testing/scripted-model';
import { collect, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

const twoCalls: Script = [
  {
    content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'getWeather', args: { city: 'Paris' } } }] },
    turnComplete: true,
    finishReason: { unified: 'tool-calls' },
    usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120, cachedInputTokens: 60, reasoningTokens: 12 },
  },
  {
    content: { role: 'model', parts: [{ text: 'Sunny in Paris.' }] },
    turnComplete: true,
    finishReason: { unified: 'stop' },
    usage: { inputTokens: 150, outputTokens: 10, totalTokens: 160, reasoningTokens: 4 },
  },
];

function runner(script: Script) {
  const sessionService = new InMemorySessionService();
  return {
    sessionService,
    runner: new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(script), tools: [weatherTool()] }) }),
  };
}

describe('usage per run', () => {
  it("the run's last event carries the sum of all its model calls' usage, cached and reasoning tokens included", async () => {
    const events = await collect(runner(twoCalls).runner, 'Weather in Paris?');
    const last = events[events.length - 1];
    expect(last.text()).toBe('Sunny in Paris.');
    expect(last.usage).toEqual({ inputTokens: 150, outputTokens: 10, totalTokens: 160, reasoningTokens: 4 });
    expect(last.runUsage).toEqual({ inputTokens: 250, outputTokens: 30, totalTokens: 280, cachedInputTokens: 60, reasoningTokens: 16 });
  });

  it('a sum past the largest number stays at it (Number.MAX_VALUE, its sign kept), never Infinity, in memory and as stored JSON', async () => {
    const huge = (count: number): Script => [
      { ...(twoCalls[0] as object), usage: { inputTokens: count, outputTokens: 1, totalTokens: count } },
      { ...(twoCalls[1] as object), usage: { inputTokens: count, outputTokens: 1, totalTokens: count, reasoningTokens: -count } },
    ] as Script;
    const { runner: app, sessionService } = runner(huge(1.7e308));
    const events = await collect(app, 'Weather in Paris?');
    expect(events[events.length - 1].runUsage).toEqual({ inputTokens: Number.MAX_VALUE, outputTokens: 2, totalTokens: Number.MAX_VALUE, reasoningTokens: -1.7e308 });
    const negative = await collect(runner(huge(-1.7e308)).runner, 'Weather in Paris?');
    expect(negative[negative.length - 1].runUsage).toEqual({ inputTokens: -Number.MAX_VALUE, outputTokens: 2, totalTokens: -Number.MAX_VALUE, reasoningTokens: 1.7e308 });
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    const stored = JSON.parse(JSON.stringify(session!.events[session!.events.length - 1].toJSON())) as { runUsage: object };
    expect(stored.runUsage).toEqual({ inputTokens: Number.MAX_VALUE, outputTokens: 2, totalTokens: Number.MAX_VALUE, reasoningTokens: -1.7e308 });
  });

  it('each complete event carries the usage so far; it is stored with the event and restarts with the next invocation', async () => {
    const { runner: app, sessionService } = runner([...twoCalls, ...twoCalls]);
    const events = await collect(app, 'Weather in Paris?');
    expect(events.map((e) => e.runUsage?.totalTokens)).toEqual([120, 120, 280]); // call, responses, answer

    const second = await collect(app, 'And again?');
    expect(second[second.length - 1].runUsage?.totalTokens).toBe(280);
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    const stored = session!.events.map((e) => e.toJSON());
    expect(stored.map((e) => e.runUsage?.totalTokens)).toEqual([undefined, 120, 120, 280, undefined, 120, 120, 280]); // user messages have none
  });

  it('partial events carry no run usage; an error event after model calls carries the usage so far', async () => {
    const first = twoCalls[0] as { content: { parts: object[] } };
    const failing: Script = [{ ...first, content: { role: 'model', parts: [{ text: 'Let me check that.' }, ...first.content.parts] } }, new Error('upstream down')] as Script;
    const events = await collect(runner(failing).runner, 'Weather in Paris?', { streaming: true });
    expect(events.filter((e) => e.partial).length).toBeGreaterThan(0);
    const last = events[events.length - 1];
    expect(last.errorCode).toBe('PROVIDER_ERROR');
    expect(last.runUsage).toEqual({ inputTokens: 100, outputTokens: 20, totalTokens: 120, cachedInputTokens: 60, reasoningTokens: 12 });
    expect(events.filter((e) => e.partial && e.runUsage)).toEqual([]);
  });

  it('a model call that fails after its provider billed part of it (withBilledUsage) counts: the error event carries that usage, and so does runUsage', async () => {
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const failing = [twoCalls[0], withBilledUsage(new Error('continuation failed'), billed)] as Script;
    const events = await collect(runner(failing).runner, 'Weather in Paris?');
    const last = events[events.length - 1];
    expect(last.errorCode).toBe('PROVIDER_ERROR');
    expect(last.usage).toEqual(billed);
    expect(last.runUsage).toEqual({ inputTokens: 170, outputTokens: 25, totalTokens: 195, cachedInputTokens: 60, reasoningTokens: 12 });
  });

  it('an onModelError callback that answers instead keeps the billed usage: it is added to its response', async () => {
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const agent = new LlmAgent({
      name: 'bot',
      model: new ScriptedModel([withBilledUsage(new Error('continuation failed'), billed)] as Script),
      callbacks: { onModelError: () => ({ content: { role: 'model', parts: [{ text: 'Sorry, try again.' }] }, turnComplete: true, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }) },
    });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Hi');
    const last = events[events.length - 1];
    expect(last.text()).toBe('Sorry, try again.');
    expect(last.usage).toEqual({ inputTokens: 71, outputTokens: 6, totalTokens: 77 });
    expect(last.runUsage).toEqual({ inputTokens: 71, outputTokens: 6, totalTokens: 77 });
  });

  it("what was billed is added to the checked copy of an onModelError callback's answer, never to a copy of the callback's object", async () => {
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    class Answer {
      turnComplete = true;
      get content() {
        return { role: 'model', parts: [{ text: 'From a getter.' }] };
      }
    }
    const run = async (answer: unknown, afterModel?: (args: { response: LlmResponse }) => undefined) => {
      const model = new ScriptedModel([withBilledUsage(new Error('continuation failed'), billed)] as Script);
      const agent = new LlmAgent({ name: 'bot', model, callbacks: { onModelError: () => answer as LlmResponse, ...(afterModel ? { afterModel } : {}) } });
      const events = await collect(new Runner({ appName: 'app', agent }), 'Hi');
      return events[events.length - 1];
    };
    // A class instance's content (a getter on its prototype) is read by the check, as without billing.
    const fromGetter = await run(new Answer());
    expect(fromGetter.text()).toBe('From a getter.');
    expect(fromGetter.usage).toEqual(billed);
    // A usage the check refuses is refused, as without billing: never replaced by what was billed, never a string sum.
    for (const usage of ['garbage', [1, 2, 3], new Answer(), { inputTokens: '5', outputTokens: 1, totalTokens: 6 }]) {
      const refused = await run({ content: { role: 'model', parts: [{ text: 'Sorry.' }] }, turnComplete: true, usage });
      expect(refused.errorCode).toBe('INVALID_MODEL_RESPONSE');
    }
    // afterModel callbacks are given the callback's own object.
    const answer = { content: { role: 'model', parts: [{ text: 'Sorry.' }] }, turnComplete: true, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
    const given: LlmResponse[] = [];
    const last = await run(answer, ({ response }) => void given.push(response));
    expect(given).toEqual([answer]);
    expect(given[0]).toBe(answer);
    expect(last.usage).toEqual({ inputTokens: 71, outputTokens: 6, totalTokens: 77 });
  });

  it('a response the boundary check refuses after a recovery, or in place of the model\'s complete one, leaves what was billed on the error event, streaming or not', async () => {
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const answer: LlmResponse = { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true, usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } };
    const refused = { content: { role: 'user', parts: [{ text: 'Sorry.' }] }, turnComplete: true, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } } as LlmResponse;
    const failingClose = (): Model => ({
      provider: 'scripted',
      modelName: 'scripted-model',
      async *generate() {
        try {
          yield answer;
        } finally {
          throw withBilledUsage(new Error('close failed'), billed);
        }
      },
    });
    const cases = [
      // A call billed before it failed; a complete response whose close failed, billed more; the model's complete response an afterModel callback replaced.
      [() => ({ model: new ScriptedModel([withBilledUsage(new Error('continuation failed'), billed)] as Script), onModelError: () => refused }), billed],
      [() => ({ model: failingClose(), onModelError: () => refused }), { inputTokens: 80, outputTokens: 7, totalTokens: 87 }],
      [() => ({ model: new ScriptedModel([answer]), afterModel: () => refused }), answer.usage],
      // The model's complete response an afterModel callback edited in place (the model's role made the user's), returned or not.
      [() => ({ model: new ScriptedModel([structuredClone(answer)]), afterModel: ({ response }: { response: LlmResponse }) => void (response.content!.role = 'user') }), answer.usage],
      [() => ({ model: new ScriptedModel([structuredClone(answer)]), afterModel: ({ response }: { response: LlmResponse }) => ((response.content!.role = 'user'), response) }), answer.usage],
    ] as const;
    for (const [setup, expected] of cases) {
      for (const streaming of [false, true]) {
        const { model, ...callbacks } = setup() as { model: Model; onModelError?: () => LlmResponse; afterModel?: (input: { response: LlmResponse }) => LlmResponse | undefined };
        const agent = new LlmAgent({ name: 'bot', model, callbacks });
        const events = await collect(new Runner({ appName: 'app', agent }), 'Hi', { streaming });
        const last = events[events.length - 1];
        expect(last.errorCode).toBe('INVALID_MODEL_RESPONSE');
        expect(last.usage).toEqual(expected);
        expect(last.runUsage).toEqual(expected);
      }
    }
  });

  it('an onModelError callback that throws leaves what was billed on the error event it ends the run on, streaming or not', async () => {
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const answer: LlmResponse = { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true, usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } };
    // A call billed before it failed, and a complete response whose close then throws.
    const failingCall = (): Model => new ScriptedModel([withBilledUsage(new Error('continuation failed'), billed)] as Script);
    const failingClose = (): Model => ({
      provider: 'scripted',
      modelName: 'scripted-model',
      async *generate() {
        try {
          yield answer;
        } finally {
          throw new Error('close failed');
        }
      },
    });
    const cases = [
      [failingCall, billed],
      [failingClose, answer.usage],
    ] as const;
    for (const [model, usage] of cases) {
      for (const streaming of [false, true]) {
        const onModelError = () => {
          throw new Error('fallback broke');
        };
        const agent = new LlmAgent({ name: 'bot', model: model(), callbacks: { onModelError } });
        const events = await collect(new Runner({ appName: 'app', agent }), 'Hi', { streaming });
        const last = events[events.length - 1];
        expect(last.errorCode).toBe('INTERNAL_ERROR');
        expect(last.errorMessage).toContain('fallback broke');
        expect(last.usage).toEqual(usage);
        expect(last.runUsage).toEqual(usage);
      }
    }
  });
  it("an afterModel callback that throws ends the run on the call's error event, with the counts of the response it was given, streaming or not", async () => {
    const usage = { inputTokens: 10, outputTokens: 2, totalTokens: 12 };
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const answer: LlmResponse = { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true, usage };
    // The model's own response; and an onModelError callback's answer for a call billed before it failed (what was billed added).
    const cases = [
      [() => ({ model: new ScriptedModel([answer]) }), usage],
      [() => ({ model: new ScriptedModel([withBilledUsage(new Error('continuation failed'), billed)] as Script), onModelError: () => answer }), { inputTokens: 80, outputTokens: 7, totalTokens: 87 }],
    ] as const;
    for (const [setup, expected] of cases) {
      for (const streaming of [false, true]) {
        const { model, onModelError } = setup() as { model: Model; onModelError?: () => LlmResponse };
        const afterModel = () => {
          throw new Error('audit store down');
        };
        const agent = new LlmAgent({ name: 'bot', model, callbacks: { afterModel, ...(onModelError ? { onModelError } : {}) } });
        const events = await collect(new Runner({ appName: 'app', agent }), 'Hi', { streaming });
        const last = events[events.length - 1];
        expect(last.errorCode).toBe('INTERNAL_ERROR');
        expect(last.errorMessage).toContain('audit store down');
        expect(last.author).toBe('bot');
        expect(last.usage).toEqual(expected);
        expect(last.runUsage).toEqual(expected);
      }
    }
  });
  it("an afterModel callback's response with no usage (a redaction, or usage set undefined in place) keeps the model's counts; a usage it gives is used", async () => {
    const usage = { inputTokens: 10, outputTokens: 2, totalTokens: 12 };
    const own = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    const answer: LlmResponse = { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true, usage };
    const redacted = { content: { role: 'model', parts: [{ text: '[redacted]' }] } } as LlmResponse;
    const cases = [
      [() => redacted, usage],
      [({ response }: { response: LlmResponse }) => void (response.usage = undefined), usage],
      [({ response }: { response: LlmResponse }) => ((response.usage = undefined), response), usage],
      [() => ({ ...redacted, usage: own }), own],
    ] as const;
    for (const [afterModel, expected] of cases) {
      for (const streaming of [false, true]) {
        const agent = new LlmAgent({ name: 'bot', model: new ScriptedModel([structuredClone(answer)]), callbacks: { afterModel } });
        const events = await collect(new Runner({ appName: 'app', agent }), 'Hi', { streaming });
        const last = events[events.length - 1];
        expect(last.errorCode).toBeUndefined();
        expect(last.usage).toEqual(expected);
        expect(last.runUsage).toEqual(expected);
      }
    }
  });

  it("an afterModel callback's response with no usage after an onModelError answer keeps that answer's counts with what was billed, as the callback's throw does", async () => {
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const given = { inputTokens: 80, outputTokens: 7, totalTokens: 87 }; // the answer's 10/2/12 and what was billed
    const redacted = { content: { role: 'model', parts: [{ text: '[redacted]' }] } } as LlmResponse;
    const afterModels = [() => redacted, ({ response }: { response: LlmResponse }) => void (response.usage = undefined)];
    for (const afterModel of afterModels) {
      for (const streaming of [false, true]) {
        const answer: LlmResponse = { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true, usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } };
        const model = new ScriptedModel([withBilledUsage(new Error('continuation failed'), billed)] as Script);
        const agent = new LlmAgent({ name: 'bot', model, callbacks: { onModelError: () => answer, afterModel } });
        const events = await collect(new Runner({ appName: 'app', agent }), 'Hi', { streaming });
        const last = events[events.length - 1];
        expect(last.errorCode).toBeUndefined();
        expect(last.usage).toEqual(given);
        expect(last.runUsage).toEqual(given);
      }
    }
  });
});
