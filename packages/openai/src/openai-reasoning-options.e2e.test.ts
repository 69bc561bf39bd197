import { join } from 'node:path';
import { collect, readRecording, recordedReply } from '@toolsmith/core/testing';
import { useOpenAIWire } from './__fixtures__/openai-wire';
import { ask } from './__fixtures__/weather-request';

// pydantic-ai's recording of gpt-5.2 with reasoning summaries (see __fixtures__/recorded/SOURCES.md): the request
// the real API answered with summaries sent reasoning: { effort: 'high', summary: 'auto' }.
const recording = readRecording(join(__dirname, '__fixtures__', 'recorded', 'responses-reasoning-summary-auto.json'));
const recordedRequest = recording.interactions[0].request!.body as { model: string; reasoning: unknown };
type Item = { type: string; summary?: Array<{ text: string }> };

describe('OpenAIModel option reasoning (Responses API)', () => {
  const { serve, model, server } = useOpenAIWire('responses');

  it('sends reasoning as the recorded request did; the summaries it brings back are thought parts', async () => {
    await serve(() => recordedReply(recording.interactions[0]));
    const [response] = await collect(model({ model: recordedRequest.model, reasoning: { effort: 'high', summary: 'auto' } }).generate(ask('Factorial?')));
    expect(server().requests[0].body.reasoning).toEqual(recordedRequest.reasoning);
    const output = (recording.interactions[0].response.json as { output: Item[] }).output;
    const summaries = output.filter((item) => item.type === 'reasoning').map((item) => item.summary!.map((piece) => piece.text).join('\n'));
    expect(summaries.filter(Boolean).length).toBeGreaterThan(0);
    expect(response.content!.parts.filter((part) => part.thought).map((part) => part.text)).toEqual(summaries.filter(Boolean));
  });

  it('unset sends no reasoning; given, store: false asks for encrypted reasoning whatever the id', async () => {
    await serve(() => recordedReply(recording.interactions[0]));
    await collect(model({ model: 'my-deployment' }).generate(ask('x')));
    await collect(model({ model: 'gpt-4.1-reasoner-deployment', store: false, reasoning: { effort: 'low' } }).generate(ask('x')));
    expect(server().requests[0].body).not.toHaveProperty('reasoning');
    expect(server().requests[1].body).toMatchObject({ reasoning: { effort: 'low' }, include: ['reasoning.encrypted_content'] });
  });
});

describe('OpenAIModel option reasoning (Chat Completions)', () => {
  const { serve, model, server } = useOpenAIWire('chat');

  it('sends effort as reasoning_effort; summary (no summaries on Chat) and a value that is not an object are refused', async () => {
    await serve(() => ({ json: { id: 'c', object: 'chat.completion', created: 1, model: 'o4-mini', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }] } }));
    await collect(model({ model: 'o4-mini', reasoning: { effort: 'high' } }).generate(ask('x')));
    expect(server().requests[0].body.reasoning_effort).toBe('high');
    expect(server().requests[0].body).not.toHaveProperty('reasoning');
    expect(() => model({ reasoning: { summary: 'auto' } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("api: 'responses'") }));
    expect(() => model({ reasoning: 'high' as never })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID' }));
  });
});
