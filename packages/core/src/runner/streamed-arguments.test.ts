import { partialFunctionCallResponse } from '../adapter-kit/partial-function-call';
import { LlmAgent } from '../agents/llm-agent';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { collect, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** A model that streams one call's arguments in pieces (as adapters do), then answers. */
function streamingModel(turns: LlmResponse[][]): Model {
  let index = 0;
  return {
    provider: 'test',
    modelName: 'streams-arguments',
    async *generate() {
      for (const response of turns[index++]) yield response;
    },
  };
}

const callTurn: LlmResponse[] = [
  partialFunctionCallResponse('c1', 'getWeather', '{"ci', '{"ci'),
  partialFunctionCallResponse('c1', 'getWeather', '{"city":"Pa', 'ty":"Pa'),
  partialFunctionCallResponse('c1', 'getWeather', '{"city":"Paris"}', 'ris"}'),
  { content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'getWeather', args: '{"city":"Paris"}' } }] }, turnComplete: true, finishReason: { unified: 'tool-calls' } },
];
const answerTurn: LlmResponse[] = [{ content: { role: 'model', parts: [{ text: 'Sunny.' }] }, turnComplete: true, finishReason: { unified: 'stop' } }];

describe('streamed tool-call arguments', () => {
  it('partial events carry the call being written (id, name, growing text); the stored call is the finished one', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model: streamingModel([callTurn, answerTurn]), tools: [weatherTool()] }) });
    const events = await collect(runner, 'Weather in Paris?', { streaming: true });

    const partials = events.filter((e) => e.partial);
    expect(partials.map((e) => e.content?.parts[0].partialFunctionCall)).toEqual([
      { id: 'c1', name: 'getWeather', argsText: '{"ci', argsDelta: '{"ci' },
      { id: 'c1', name: 'getWeather', argsText: '{"city":"Pa', argsDelta: 'ty":"Pa' },
      { id: 'c1', name: 'getWeather', argsText: '{"city":"Paris"}', argsDelta: 'ris"}' },
    ]);
    expect(partials.every((e) => e.author === 'bot' && !e.isFinalResponse() && e.functionCalls().length === 0)).toBe(true);
    const complete = events.filter((e) => !e.partial);
    expect(complete[0].functionCalls()).toEqual([{ id: 'c1', name: 'getWeather', args: '{"city":"Paris"}' }]);
    expect(complete[1].functionResponses()[0].response).toEqual({ status: 'success', report: 'Sunny in Paris' });

    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.events.some((e) => e.content?.parts.some((p) => p.partialFunctionCall))).toBe(false);
  });

  it('a complete response holding a partial call is refused at the boundary (INVALID_MODEL_RESPONSE), nothing stored from it', async () => {
    const bad: LlmResponse = { ...partialFunctionCallResponse('c1', 'getWeather', '{}', '{}'), partial: false, turnComplete: true };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: streamingModel([[bad]]), tools: [weatherTool()] }) });
    const events = await collect(runner, 'Weather?');
    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_RESPONSE']);
    expect(events[0].errorMessage).toContain('partial function call');
  });
});
