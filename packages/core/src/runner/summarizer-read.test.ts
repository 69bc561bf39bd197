import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

const KEY = { appName: 'shop', userId: 'u1', sessionId: 's1' };

/** A runner whose third message has the history summarized by `summarizer`. */
function setup(summarizer: Model) {
  const sessionService = new InMemorySessionService();
  const agent = new LlmAgent({ name: 'clerk', model: new ScriptedModel(['A1', 'A2', 'A3', 'A4']), compaction: { strategy: 'summarize', everyTurns: 3, keepTurns: 1, model: summarizer } });
  return { runner: new Runner({ appName: 'shop', agent, sessionService }), sessionService };
}

async function send(runner: Runner, text: string, signal?: AbortSignal): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user(text), ...(signal ? { signal } : {}) })) events.push(event);
  return events;
}

const summary = (text: string): LlmResponse => ({ content: { role: 'model', parts: [{ text }] }, turnComplete: true });

describe("the summarizer's model is read as the agent's own model calls are", () => {
  it('no further than its complete response: what it would send after is never read, and its generator is closed there', async () => {
    const log: string[] = [];
    const summarizer: Model = {
      provider: 'raw',
      modelName: 'raw',
      async *generate() {
        try {
          yield summary('REAL SUMMARY');
          log.push('read past the complete response');
          yield summary('INJECTED LATER');
          yield { error: { code: 'LATE_FAIL', message: 'late' } };
        } finally {
          log.push('closed');
        }
      },
    };
    const { runner, sessionService } = setup(summarizer);
    for (const text of ['one', 'two']) await send(runner, text);
    const third = await send(runner, 'three');
    expect(third.map((event) => event.errorCode)).toEqual([undefined]);
    expect(log).toEqual(['closed']);
    const stored = (await sessionService.getSession(KEY))!.events;
    const compaction = stored.find((event) => event.actions.compaction);
    expect(compaction?.actions.compaction?.summary).toBe('REAL SUMMARY');
  });

  it('an abort ends the read at once, even while the model goes on sending: RUN_ABORTED, and the session is free', async () => {
    const controller = new AbortController();
    let parts = 0;
    const summarizer: Model = {
      provider: 'raw',
      modelName: 'raw',
      async *generate() {
        // Ignores the signal and would go on sending: the run must stop reading at the abort (a run
        // that reads on gets an error at the 100th part, so this test fails rather than hangs).
        for (;;) {
          if (++parts === 3) controller.abort(new Error('user left'));
          if (parts === 100) throw new Error('the run read on after the abort');
          yield { content: { role: 'model', parts: [{ text: 'more' }] }, partial: true };
        }
      },
    };
    const { runner } = setup(summarizer);
    for (const text of ['one', 'two']) await send(runner, text);
    const third = await send(runner, 'three', controller.signal);
    expect(third.map((event) => event.errorCode)).toEqual(['RUN_ABORTED']);
    expect(parts).toBe(3);
  });
});
