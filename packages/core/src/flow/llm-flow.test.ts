import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import { FnTool, user } from '../runner/__fixtures__/test-tools';
import { Runner } from '../runner/runner';
import { ScriptedModel } from '../testing/scripted-model';
import { LlmFlow } from './llm-flow';

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
