import { LlmAgent } from '../agents/llm-agent';
import type { AgentCallbacks } from '../agents/callbacks';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { collect } from '../runner/__fixtures__/test-tools';
import { Runner } from '../runner/runner';

const text = (value: string): LlmResponse['content'] => ({ role: 'model', parts: [{ text: value }] });

/** A model that sends two partial responses whatever `stream` says, logging when it produces each part. */
function chattyModel(log: string[], complete = true): Model {
  return {
    provider: 'test',
    modelName: 'chatty',
    async *generate() {
      log.push('model: part 1');
      yield { content: text('Hel'), partial: true };
      log.push('model: part 2');
      yield { content: text('lo'), partial: true };
      if (!complete) return;
      log.push('model: complete');
      yield { content: text('Hello'), turnComplete: true };
    },
  };
}

async function run(model: Model, streaming: boolean, callbacks?: AgentCallbacks) {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, callbacks }), sessionService });
  const events = await collect(runner, 'hi', { streaming });
  const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
  return { events, stored: session!.events };
}

describe('model calls', () => {
  it.each([false, true])('emits the partial responses a model sends, then the complete one, and stores only that (streaming: %s)', async (streaming) => {
    const { events, stored } = await run(chattyModel([]), streaming);

    expect(events.map((e) => [e.partial ?? false, e.text()])).toEqual([[true, 'Hel'], [true, 'lo'], [false, 'Hello']]);
    expect(stored.map((e) => e.text())).toEqual(['hi', 'Hello']);
  });

  it('hands each partial event to the caller before the model produces the next part when streaming', async () => {
    const log: string[] = [];
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: chattyModel(log) }) });
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, streaming: true })) {
      log.push(`caller: ${event.text()}`);
    }

    expect(log).toEqual(['model: part 1', 'caller: Hel', 'model: part 2', 'caller: lo', 'model: complete', 'caller: Hello']);
  });

  it.each([false, true])('reports a model that ends without a complete response; onModelError may recover, then afterModel runs (streaming: %s)', async (streaming) => {
    const failed = await run(chattyModel([], false), streaming);
    expect(failed.events.at(-1)).toMatchObject({ errorCode: 'PROVIDER_RESPONSE_INVALID' });
    expect(failed.events.at(-1)!.errorMessage).toContain('"chatty" ended its answer without a complete response');

    const recovered = await run(chattyModel([], false), streaming, {
      onModelError: ({ error }) => ({ content: text(`fallback after ${error.code}`) }),
      afterModel: ({ response }) => ({ ...response, content: text(`${response.content!.parts[0].text}, checked`) }),
    });
    expect(recovered.events.map((e) => e.text())).toEqual(['Hel', 'lo', 'fallback after PROVIDER_RESPONSE_INVALID, checked']);
    expect(recovered.stored.at(-1)!.text()).toBe('fallback after PROVIDER_RESPONSE_INVALID, checked');
  });
});
