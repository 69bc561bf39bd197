import { InMemorySessionService, LlmAgent, Runner } from '@toolsmith/core';
import type { Event } from '@toolsmith/core';
import { GeminiModel } from './gemini-model';

/** A model whose client answers every call with `body` (whole or as one chunk), counting the calls. */
function modelAnswering(body: unknown) {
  const counter = { calls: 0 };
  const client = {
    models: {
      generateContent: async () => {
        counter.calls++;
        return body;
      },
      generateContentStream: async () => {
        counter.calls++;
        return (async function* () {
          yield body;
        })();
      },
    },
  };
  return { counter, model: new GeminiModel({ model: 'gemini-x', client: client as never, retry: { maxDelayMs: 0 } }) };
}

async function run(body: unknown, streaming: boolean) {
  const { counter, model } = modelAnswering(body);
  const runner = new Runner({ appName: 'app', sessionService: new InMemorySessionService(), agent: new LlmAgent({ name: 'bot', model }) });
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'speak' }] }, streaming })) if (!event.partial) events.push(event);
  return { calls: counter.calls, codes: events.map((event) => event.errorCode) };
}

describe('a Gemini response of an unexpected shape', () => {
  it.each([false, true])('malformed inline data is refused by core, with no retry (streaming: %s)', async (streaming) => {
    for (const inlineData of [{ mimeType: 42, data: 'AAAA' }, { mimeType: 'audio/L16', data: null }, { mimeType: 'audio/L16', data: 12345 }]) {
      const body = { candidates: [{ content: { role: 'model', parts: [{ text: 'Here it is.' }, { inlineData }] }, finishReason: 'STOP' }] };
      expect(await run(body, streaming)).toEqual({ calls: 1, codes: ['INVALID_MODEL_RESPONSE'] });
    }
  });

  it.each([false, true])('an error of the mapping code is PROVIDER_RESPONSE_INVALID, not a retried connection failure (streaming: %s)', async (streaming) => {
    const body = { candidates: [{ content: { role: 'model', parts: 5 }, finishReason: 'STOP' }] };
    expect(await run(body, streaming)).toEqual({ calls: 1, codes: ['PROVIDER_RESPONSE_INVALID'] });
  });

  const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  const answer = (content: unknown) => ({ candidates: [{ content, finishReason: 'STOP' }], usageMetadata: usage });
  it.each([false, true])('a body of another shape is PROVIDER_RESPONSE_INVALID, never an empty answer (streaming: %s)', async (streaming) => {
    for (const body of [
      { candidates: 5, usageMetadata: usage },
      { candidates: 'x', usageMetadata: usage },
      { candidates: [5], usageMetadata: usage },
      answer('hello'),
      answer({ role: 'model', parts: [5] }),
      answer({ role: 'model', parts: 'text' }),
      answer({ role: 'model', parts: [{ text: 'ok' }, 'more'] }),
      { ...answer({ role: 'model', parts: [{ text: 'ok' }] }), usageMetadata: 'x' },
      { ...answer({ role: 'model', parts: [{ text: 'ok' }] }), promptFeedback: 'x' },
      [answer({ role: 'model', parts: [{ text: 'ok' }] })],
    ]) {
      expect([body, await run(body, streaming)]).toEqual([body, { calls: 1, codes: ['PROVIDER_RESPONSE_INVALID'] }]);
    }
  });

  it('a streamed chunk of another shape after good ones fails the stream', async () => {
    const client = {
      models: {
        generateContentStream: async () =>
          (async function* () {
            yield { candidates: [{ content: { role: 'model', parts: [{ text: 'a' }] } }] };
            yield answer('hello');
          })(),
      },
    };
    const runner = new Runner({ appName: 'app', sessionService: new InMemorySessionService(), agent: new LlmAgent({ name: 'bot', model: new GeminiModel({ model: 'gemini-x', client: client as never }) }) });
    const codes: Array<string | undefined> = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'speak' }] }, streaming: true })) if (!event.partial) codes.push(event.errorCode);
    expect(codes).toEqual(['PROVIDER_RESPONSE_INVALID']);
  });

  it('absent or null fields are read as absent: a body with no candidates, or null ones, stays an empty answer', async () => {
    for (const body of [{ candidates: [], usageMetadata: usage, responseId: 'r' }, { candidates: null, usageMetadata: null, promptFeedback: null }, answer(null), answer({ role: 'model', parts: null })]) {
      expect([body, await run(body, false)]).toEqual([body, { calls: 1, codes: [undefined] }]);
    }
    // Streamed, a chunk with no candidates has no finish reason (a cut-off stream, as before); these have one.
    for (const body of [answer(null), answer({ role: 'model', parts: null })]) expect([body, await run(body, true)]).toEqual([body, { calls: 1, codes: [undefined] }]);
  });

  it('PCM data of only padding is refused by core as any other type is, not kept as an empty WAV file', async () => {
    for (const mimeType of ['audio/pcm', 'audio/L16;rate=24000', 'audio/mpeg']) {
      for (const data of ['=', '====']) {
        const body = { candidates: [{ content: { role: 'model', parts: [{ text: 't' }, { inlineData: { mimeType, data } }] }, finishReason: 'STOP' }] };
        expect([mimeType, data, await run(body, false)]).toEqual([mimeType, data, { calls: 1, codes: ['INVALID_MODEL_RESPONSE'] }]);
      }
    }
  });
});
