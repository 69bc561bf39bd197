import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import { FnTool, user } from '../runner/__fixtures__/test-tools';
import { Runner } from '../runner/runner';
import { ScriptedModel } from '../testing/scripted-model';
import { LlmFlow } from './llm-flow';
import * as modelCall from './model-call';

describe('LlmFlow.nextNow', () => {
  afterEach(() => jest.restoreAllMocks());

  it("hands the runner the usual tool step's batch itself, not a promise of it; the model calls' batches stay promises", async () => {
    const nextNow = jest.spyOn(LlmFlow.prototype, 'nextNow');
    const next = jest.spyOn(LlmFlow.prototype, 'next');
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [new FnTool('note', () => ({ ok: true }))] }) });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('note it') })) events.push(event);
    expect(events.map((e) => e.functionResponses().length)).toEqual([0, 1, 0]);
    const handed = nextNow.mock.results.map((r) => r.value as unknown);
    // The model call, the tool step (at hand), the answer's model call.
    expect(handed.map((value) => (value instanceof Promise ? 'promise' : Array.isArray(value) ? 'batch' : String(value)))).toEqual(['promise', 'batch', 'promise']);
    expect((handed[1] as Event[])[0]).toBe(events[1]);
    expect(next).not.toHaveBeenCalled();
  });
});

describe('LlmFlow.nextTo', () => {
  afterEach(() => jest.restoreAllMocks());

  const kind = (value: unknown) => (value instanceof Promise ? 'promise' : Array.isArray(value) ? 'batch' : String(value));

  it("hands a model call's step to the runner in the call itself: the run's next() answers with the call's own promise", async () => {
    const nextTo = jest.spyOn(LlmFlow.prototype, 'nextTo');
    const calls = jest.spyOn(modelCall, 'callModel');
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [new FnTool('note', () => ({ ok: true }))] }) });
    const run = runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('note it') });
    const answers: Promise<IteratorResult<Event, void>>[] = [];
    const events: Event[] = [];
    for (;;) {
      const answer = run.next();
      answers.push(answer);
      const result = await answer;
      if (result.done) break;
      events.push(result.value);
    }
    expect(events.map((e) => e.functionResponses().length)).toEqual([0, 1, 0]);
    const handed = nextTo.mock.results.map((r) => r.value as unknown);
    // The model call, the tool step (at hand), the answer's model call.
    expect(handed.map(kind)).toEqual(['promise', 'batch', 'promise']);
    // No then of the runner's between the model call and the caller: its promise is the run's answer, of the event.
    expect(answers[0]).toBe(handed[0]);
    expect(answers[2]).toBe(handed[2]);
    expect(calls.mock.results[0].value).toBe(answers[0]);
    expect(calls.mock.results[1].value).toBe(answers[2]);
    expect(await answers[2]).toEqual({ value: events[2], done: false });
  });

  it("hands a model call's failure (an instruction function that throws) to the runner the same way: the run ends on its error event", async () => {
    const nextTo = jest.spyOn(LlmFlow.prototype, 'nextTo');
    const calls = jest.spyOn(modelCall, 'callModel');
    const agent = new LlmAgent({
      name: 'root',
      model: new ScriptedModel(['Hello']),
      instruction: () => {
        throw new Error('audit store down');
      },
    });
    const run = new Runner({ appName: 'app', agent }).run({ userId: 'u1', sessionId: 's1', newMessage: user('hi') });
    const first = run.next();
    expect(kind(nextTo.mock.results[0].value)).toBe('promise');
    expect(first).toBe(nextTo.mock.results[0].value);
    expect(first).toBe(calls.mock.results[0].value);
    const result = await first;
    expect(result.done).toBe(false);
    expect((result.value as Event).errorCode).toBe('INTERNAL_ERROR');
    expect(await run.next()).toEqual({ value: undefined, done: true });
  });
});
