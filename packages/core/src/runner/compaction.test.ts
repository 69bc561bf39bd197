import { LlmAgent } from '../agents/llm-agent';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { Event } from '../events/event';
import type { LlmRequest } from '../model/llm-request';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { onlyRequest, send } from './__fixtures__/confirmation-fixtures';
import { FnTool, user, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';
import type { CompactionOptions } from '../context/compaction-options';
import { SUMMARY_PREFIX } from '../flow/compacted-contents';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { withBilledUsage } from '../model/billed-usage';
import type { Usage } from '../model/llm-response';
import type { Model } from '../model/model';

const weatherTurn = (n: number) => [{ calls: [{ id: `w${n}`, name: 'getWeather', args: { city: `City${n}` } }] }, `Answer ${n}.`];

function setup(compaction: CompactionOptions, script: ConstructorParameters<typeof ScriptedModel>[0], summaries: string[] = ['S1', 'S2', 'S3']) {
  const model = new ScriptedModel(script);
  const summarizer = new ScriptedModel(summaries);
  const refund = new FnTool('refund', (args) => ({ refunded: args.amount }), { requireConfirmation: true });
  const sessionService = new InMemorySessionService();
  const agent = new LlmAgent({ name: 'clerk', model, tools: [weatherTool(), refund], compaction: compaction.strategy === 'summarize' ? { model: summarizer, ...compaction } : compaction });
  const runner = new Runner({ appName: 'shop', agent, sessionService });
  const stored = async () => (await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!.events;
  return { model, summarizer, runner, stored };
}

/** The user texts of a request, in order (the summary included). */
const texts = (request: LlmRequest) => request.contents.flatMap((content) => content.parts.flatMap((part) => (part.text === undefined ? [] : [part.text])));

/** Every call in a request has its result right after it, and every result follows its call (the providers' pairing rule). */
function expectPaired(request: LlmRequest) {
  request.contents.forEach((content, i) => {
    const calls = content.parts.flatMap((part) => (part.functionCall ? [part.functionCall.id] : []));
    if (calls.length) expect(request.contents[i + 1]?.parts.map((part) => part.functionResponse?.id)).toEqual(calls);
    const results = content.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse.id] : []));
    if (results.length) expect(request.contents[i - 1]?.parts.flatMap((part) => (part.functionCall ? [part.functionCall.id] : []))).toEqual(results);
  });
}

describe('compaction: trim', () => {
  it('sends only the last keepTurns turns, each with whole call/result pairs; the stored history stays whole', async () => {
    const { model, runner, stored } = setup({ strategy: 'trim', keepTurns: 2 }, [...weatherTurn(1), ...weatherTurn(2), ...weatherTurn(3)]);
    for (const n of [1, 2, 3]) await send(runner, user(`Weather ${n}?`));

    const last = model.requests.at(-1)!;
    expect(texts(last)).toEqual(['Weather 2?', 'Answer 2.', 'Weather 3?']);
    expectPaired(last);
    expect(last.contents.map((content) => content.role)).toEqual(['user', 'model', 'user', 'model', 'user', 'model', 'user']);
    expect((await stored()).length).toBe(12); // 3 turns × (message, call, result, answer): nothing removed
  });
});

describe('compaction: summarize', () => {
  it('every N turns: older turns become one stored compaction event, and the model is sent the summary and the kept turns', async () => {
    const { model, summarizer, runner, stored } = setup({ strategy: 'summarize', everyTurns: 3, keepTurns: 1 }, [...weatherTurn(1), ...weatherTurn(2), ...weatherTurn(3), 'Answer 4.']);
    for (const n of [1, 2]) await send(runner, user(`Weather ${n}?`));
    expect(summarizer.callCount).toBe(0);

    const third = await send(runner, user('Weather 3?'));

    expect(summarizer.callCount).toBe(1);
    const asked = summarizer.requests[0];
    expect(asked.tools).toEqual([]);
    expect(asked.contents).toHaveLength(1);
    expect(texts(asked)[0]).toContain('User: Weather 1?');
    expect(texts(asked)[0]).toContain('Agent called tool `getWeather` with {"city":"City1"}');
    expect(texts(asked)[0]).toContain('Tool `getWeather` returned {"status":"success","report":"Sunny in City1"}');
    expect(texts(asked)[0]).toContain('Agent: Answer 2.');
    expect(texts(asked)[0]).not.toContain('Weather 3?');

    const compaction = third[0];
    expect(compaction.actions.compaction).toEqual({ summary: 'S1', firstKeptEventId: (await stored())[8].id, summarizedEvents: 8 });
    expect(compaction.content).toBeUndefined();
    expect(compaction.isFinalResponse()).toBe(false);
    expect(third.at(-1)!.text()).toBe('Answer 3.');

    const afterCompaction = model.requests[4];
    expect(texts(afterCompaction)).toEqual([`${SUMMARY_PREFIX}S1`, 'Weather 3?']);
    expectPaired(model.requests[5]);
    expect(texts(model.requests[5])).toEqual([`${SUMMARY_PREFIX}S1`, 'Weather 3?']);
    expect((await stored()).filter((event) => event.author === 'user' && event.content?.parts[0].text).length).toBe(3);

    await send(runner, user('Weather 4?'));
    expect(texts(model.requests.at(-1)!)).toEqual([`${SUMMARY_PREFIX}S1`, 'Weather 3?', 'Answer 3.', 'Weather 4?']);
    expect(summarizer.callCount).toBe(1);
  });

  it('a second compaction summarizes the earlier summary with the turns after it', async () => {
    const { summarizer, model, runner } = setup({ strategy: 'summarize', everyTurns: 2, keepTurns: 1 }, ['A1', 'A2', 'A3', 'A4']);
    for (const n of [1, 2, 3, 4]) await send(runner, user(`Q${n}`));

    expect(summarizer.callCount).toBe(2);
    expect(texts(summarizer.requests[1])[0]).toContain(`${SUMMARY_PREFIX}S1`);
    expect(texts(summarizer.requests[1])[0]).toContain('User: Q2');
    expect(texts(summarizer.requests[1])[0]).not.toContain('User: Q1');
    expect(texts(model.requests.at(-1)!)).toEqual([`${SUMMARY_PREFIX}S2`, 'Q4']);
  });

  it('when the last request passed maxInputTokens: summarizes once, and the summary call counts in runUsage', async () => {
    const answer = (text: string, inputTokens: number) => ({ content: { role: 'model' as const, parts: [{ text }] }, turnComplete: true, usage: { inputTokens, outputTokens: 5, totalTokens: inputTokens + 5 } });
    const { model, summarizer, runner } = setup({ strategy: 'summarize', maxInputTokens: 1000, keepTurns: 1 }, [answer('A1', 400), answer('A2', 1200), answer('A3', 300), answer('A4', 500)]);
    await send(runner, user('Q1'));
    await send(runner, user('Q2'));
    expect(summarizer.callCount).toBe(0); // Q2's request was the big one; it is seen before the next call

    const third = await send(runner, user('Q3'));
    expect(summarizer.callCount).toBe(1);
    expect(texts(model.requests[2])).toEqual([`${SUMMARY_PREFIX}S1`, 'Q3']);
    // ScriptedModel's summary call reports zero tokens; the model call's own usage is added to it.
    expect(third[0].usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(third.at(-1)!.runUsage).toEqual({ inputTokens: 300, outputTokens: 5, totalTokens: 305 });

    await send(runner, user('Q4'));
    expect(summarizer.callCount).toBe(1); // the last call (300) is under the budget
  });

  it('never cuts into a pending confirmation: no compaction while it waits; once answered, the cut moves past it', async () => {
    const { model, summarizer, runner } = setup({ strategy: 'summarize', everyTurns: 2, keepTurns: 1 }, [
      { calls: [{ id: 'r1', name: 'refund', args: { amount: 250 } }] },
      'Still waiting for your approval.',
      'Yes, still waiting.',
      'Refunded 250.',
      'Bye.',
    ]);
    const paused = await send(runner, user('Refund 250'));
    const request = onlyRequest(paused);
    await send(runner, user('Is it done?'));
    await send(runner, user('And now?'));
    expect(summarizer.callCount).toBe(0);
    expect(texts(model.requests[2])).toEqual(['Refund 250', 'Is it done?', 'Still waiting for your approval.', 'And now?']);
    expectPaired(model.requests[2]);

    await send(runner, confirmationResponse(request, { confirmed: true }));
    await send(runner, user('Thanks'));
    expect(summarizer.callCount).toBe(1);
    expect(texts(model.requests[4])).toEqual([`${SUMMARY_PREFIX}S1`, 'Thanks']);
  });

  it('never cuts after a long-running call still running', async () => {
    const exportTool = new FnTool('startExport', () => ({ status: 'pending' }), { longRunning: true });
    const model = new ScriptedModel([{ calls: [{ id: 'lr', name: 'startExport', args: {} }] }, 'A2', 'A3']);
    const summarizer = new ScriptedModel(['S1']);
    const runner = new Runner({ appName: 'w', agent: new LlmAgent({ name: 'x', model, tools: [exportTool], compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: summarizer } }) });
    const run = (text: string) => send(runner, user(text));
    await run('export');
    await run('Q2');
    await run('Q3');
    expect(summarizer.callCount).toBe(0);
    expectPaired(model.requests.at(-1)!);
    expect(texts(model.requests.at(-1)!)[0]).toBe('export');
  });

  it('an orphaned call (stored without a result, the conversation went on) does not stop later compaction', async () => {
    const { model, summarizer, runner } = setup({ strategy: 'summarize', everyTurns: 2, keepTurns: 1 }, ['A1', 'A2', 'A3']);
    await send(runner, user('Q1'));
    const session = (await runner.sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!;
    // An imported history: a model call that was never answered, then a later answer of the model.
    await runner.sessionService.appendEvent(session, Event.create({ invocationId: 'old', author: 'clerk', content: { role: 'model', parts: [{ functionCall: { id: 'lost', name: 'getWeather', args: { city: 'X' } } }] } }));
    await runner.sessionService.appendEvent(session, Event.create({ invocationId: 'old', author: 'clerk', content: { role: 'model', parts: [{ text: 'Moving on.' }] } }));
    await send(runner, user('Q2'));
    await send(runner, user('Q3'));

    expect(summarizer.callCount).toBe(1);
    expect(texts(summarizer.requests[0])[0]).toContain('Agent called tool `getWeather` with {"city":"X"}');
    expect(texts(model.requests.at(-1)!)).toEqual([`${SUMMARY_PREFIX}S1`, 'Q2', 'A2', 'Q3']);
  });

  it('a summarizing model that fails ends the run with its error; nothing else is stored, and the next message tries again', async () => {
    const model = new ScriptedModel(['A1', 'A2', 'A3']);
    const summarizer = new ScriptedModel([new Error('summarizer down'), 'S1']);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'w', sessionService, agent: new LlmAgent({ name: 'x', model, compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: summarizer } }) });
    await send(runner, user('Q1'));
    const failed = await send(runner, user('Q2'));

    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ errorCode: 'PROVIDER_ERROR', errorMessage: expect.stringContaining('summarizer down') });
    expect(model.callCount).toBe(1);
    const storedAfter = (await sessionService.getSession({ appName: 'w', userId: 'u1', sessionId: 's1' }))!.events;
    expect(storedAfter.map((event) => event.errorCode ?? event.text())).toEqual(['Q1', 'A1', 'Q2', 'PROVIDER_ERROR']);
    const retried = await send(runner, user('Q3'));
    expect(retried[0].actions.compaction?.summary).toBe('S1');
    expect(retried.at(-1)!.text()).toBe('A2');
  });

  it("a summarizing response that reports an error ends the run with the model's code and redacted message, with or without content; no compaction is stored", async () => {
    const error = { code: 'RATE_LIMITED', message: 'slow down, key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' };
    for (const response of [{ content: undefined, error }, { content: { role: 'model' as const, parts: [{ text: 'S1' }] }, error, usage: { inputTokens: 5, outputTokens: 1 } }]) {
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: 'w', sessionService, agent: new LlmAgent({ name: 'x', model: new ScriptedModel(['A1', 'A2']), compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: new ScriptedModel([response]) } }) });
      await send(runner, user('Q1'));
      const failed = await send(runner, user('Q2'));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ errorCode: 'RATE_LIMITED', errorMessage: expect.stringContaining('slow down') });
      expect(failed[0].errorMessage).not.toContain('abcdefghijklmnopqrstuvwxyz');
      expect(failed[0].actions.compaction).toBeUndefined();
      const stored = (await sessionService.getSession({ appName: 'w', userId: 'u1', sessionId: 's1' }))!.events;
      expect(stored.map((event) => event.errorCode ?? event.text())).toEqual(['Q1', 'A1', 'Q2', 'RATE_LIMITED']);
    }
  });

  it('a summary with no text is PROVIDER_RESPONSE_INVALID', async () => {
    const runner = new Runner({ appName: 'w', agent: new LlmAgent({ name: 'x', model: new ScriptedModel(['A1']), compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: new ScriptedModel(['  ']) } }) });
    await send(runner, user('Q1'));
    expect((await send(runner, user('Q2')))[0]).toMatchObject({ errorCode: 'PROVIDER_RESPONSE_INVALID', errorMessage: expect.stringContaining('no summary text') });
  });

  it('a summarizing call that fails still counts what it was billed: on its error event, in runUsage and on its chat span', async () => {
    const counts = { inputTokens: 7, outputTokens: 2, totalTokens: 9 };
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const closing = (): Model => ({
      provider: 'scripted',
      modelName: 'summarizer',
      async *generate() {
        try {
          yield { content: { role: 'model', parts: [{ text: 'S1' }] }, turnComplete: true, usage: counts };
        } finally {
          throw withBilledUsage(new Error('close failed'), billed);
        }
      },
    });
    const cases: [string, () => Model, Usage][] = [
      ['PROVIDER_ERROR', () => new ScriptedModel([withBilledUsage(new Error('continuation failed'), billed)]), billed],
      ['PROVIDER_RESPONSE_INVALID', () => new ScriptedModel([{ content: { role: 'model', parts: [] }, turnComplete: true, usage: counts }]), counts],
      ['PROVIDER_ERROR', closing, { inputTokens: 77, outputTokens: 7, totalTokens: 84 }],
    ];
    for (const [code, summarizer, usage] of cases) {
      const exporter = new InMemorySpanExporter();
      const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const agent = new LlmAgent({ name: 'x', model: new ScriptedModel(['A1']), compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: summarizer() } });
      const runner = new Runner({ appName: 'w', agent, tracing: { tracerProvider } });
      await send(runner, user('Q1'));
      const failed = await send(runner, user('Q2'));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ errorCode: code, usage, runUsage: usage });
      const chat = exporter.getFinishedSpans().filter((span) => span.attributes['toolsmith.compaction'] === true);
      expect(chat.map((span) => [span.attributes['error.type'], span.attributes['gen_ai.usage.input_tokens'], span.attributes['gen_ai.usage.output_tokens']])).toEqual([[code, usage.inputTokens, usage.outputTokens]]);
    }
  });

  it("the summarizing model's response is checked and copied as the agent's are: its usage is stored as plain counts, a response that is not the model's is INVALID_MODEL_RESPONSE", async () => {
    const usage: Record<string, unknown> = { inputTokens: 7, outputTokens: 2, extra: { nested: true }, reasoningTokens: Infinity };
    Object.defineProperty(usage, 'secret', { get: () => 'sk-live', enumerable: true });
    const summarizer = new ScriptedModel([{ content: { role: 'model', parts: [{ text: 'S1' }] }, usage: usage as never }]);
    const runner = new Runner({ appName: 'w', agent: new LlmAgent({ name: 'x', model: new ScriptedModel(['A1', 'A2']), compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: summarizer } }) });
    await send(runner, user('Q1'));
    const compacted = (await send(runner, user('Q2')))[0];
    expect(compacted.actions.compaction?.summary).toBe('S1');
    expect(compacted.usage).toEqual({ inputTokens: 7, outputTokens: 2 });
    usage.inputTokens = 1_000; // the model's object, changed later, is not what was stored
    const stored = (await runner.sessionService.getSession({ appName: 'w', userId: 'u1', sessionId: 's1' }))!.events;
    expect(stored.find((event) => event.actions.compaction)!.usage).toEqual({ inputTokens: 7, outputTokens: 2 });

    const forged = new Runner({
      appName: 'w',
      agent: new LlmAgent({ name: 'x', model: new ScriptedModel(['A1']), compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: new ScriptedModel([{ content: { role: 'user', parts: [{ text: 'S1' }] } }]) } }),
    });
    await send(forged, user('Q1'));
    expect((await send(forged, user('Q2')))[0]).toMatchObject({ errorCode: 'INVALID_MODEL_RESPONSE' });
  });

  it('keeps 2 turns by default; a runner without the option is sent the whole history', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['A1', 'A2', 'A3', 'A4']);
    const compacting = new Runner({ appName: 'w', sessionService, agent: new LlmAgent({ name: 'x', model, compaction: { strategy: 'summarize', everyTurns: 3, model: new ScriptedModel(['S1']) } }) });
    for (const q of ['Q1', 'Q2', 'Q3']) await send(compacting, user(q));
    expect(texts(model.requests[2])).toEqual([`${SUMMARY_PREFIX}S1`, 'Q2', 'A2', 'Q3']);

    const plain = new ScriptedModel(['A4']);
    await send(new Runner({ appName: 'w', sessionService, agent: new LlmAgent({ name: 'x', model: plain }) }), user('Q4'));
    expect(texts(plain.requests[0])).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3', 'A3', 'Q4']);
  });

  it('the runner option applies to agents without their own; bad options fail at construction with AGENT_CONFIG_INVALID', () => {
    const model = new ScriptedModel([]);
    expect(() => new LlmAgent({ name: 'x', model, compaction: { strategy: 'summarize' } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('needs a trigger') }));
    expect(() => new LlmAgent({ name: 'x', model, compaction: { strategy: 'trim', keepTurns: 0 } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('keepTurns must be a whole number of at least 1, got 0') }));
    expect(() => new Runner({ appName: 'a', agent: new LlmAgent({ name: 'x', model }), compaction: { strategy: 'summarize', everyTurns: 1.5 } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('the runner') }));
  });

  it('the runner-wide option compacts an agent that has none', async () => {
    const model = new ScriptedModel(['A1', 'A2', 'A3']);
    const runner = new Runner({ appName: 'w', agent: new LlmAgent({ name: 'x', model }), compaction: { strategy: 'trim', keepTurns: 1 } });
    for (const q of ['Q1', 'Q2', 'Q3']) await send(runner, user(q));
    expect(texts(model.requests[2])).toEqual(['Q3']);
  });
});
