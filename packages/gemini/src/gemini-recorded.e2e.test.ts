import { join } from 'node:path';
import { type Event, LlmAgent, ProviderError, RateLimitError, Runner, functionTool } from '@toolsmith/core';
import { type Recording, type WireServer, readRecording, recordedReply, startReplayServer, startWireServer } from '@toolsmith/core/testing';
import { GeminiModel } from './gemini-model';

// Replays answers recorded from the real Gemini API (see __fixtures__/recorded/SOURCES.md) to the
// official SDK through GeminiModel inside a Runner; where the recording holds the next request the real
// API accepted, the request this adapter sends is compared with it.
const recorded = (name: string): Recording => readRecording(join(__dirname, '__fixtures__', 'recorded', `${name}.json`));

type GeminiPart = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- recorded wire parts of every shape
type GeminiContent = { role: string; parts: GeminiPart[] };
type GeminiBody = { contents: GeminiContent[]; tools?: Array<{ functionDeclarations?: Array<{ name: string; parameters_json_schema?: object; parametersJsonSchema?: object }> }> };
const body = (recording: Recording, index: number) => recording.interactions[index].request!.body as GeminiBody;

/**
 * A recorded request's contents as this adapter must send them. The recording client (pydantic-ai, Python
 * SDK) gave calls Gemini sent without an id ids of its own and re-encoded signatures as base64url; this
 * adapter sends such calls without an id, as Gemini sent them, and each signature exactly as received
 * (base64). Both forms are the same bytes to the API, which accepted the recorded request.
 */
function asSentByAdapter(contents: GeminiContent[]): GeminiContent[] {
  return contents.map((content) => ({
    role: content.role,
    parts: content.parts.map((part) => {
      const copy: GeminiPart = JSON.parse(JSON.stringify(part));
      if (copy.functionCall?.id?.startsWith('pyd_ai_')) delete copy.functionCall.id;
      if (copy.functionResponse?.id?.startsWith('pyd_ai_')) delete copy.functionResponse.id;
      if (copy.thoughtSignature) copy.thoughtSignature = copy.thoughtSignature.replace(/-/g, '+').replace(/_/g, '/');
      return copy;
    }),
  }));
}

/**
 * Tools named as the recording's declarations, each answering with the results the recording's tool
 * gave, in order (so the function responses this adapter sends can be compared whole). `final_result`
 * ends the run, as the recording client's output tool did.
 */
function recordedTools(recording: Recording) {
  const last = body(recording, recording.interactions.length - 1);
  const results = new Map<string, Array<Record<string, unknown>>>();
  for (const part of last.contents.flatMap((content) => content.parts)) {
    if (part.functionResponse) results.set(part.functionResponse.name, [...(results.get(part.functionResponse.name) ?? []), part.functionResponse.response]);
  }
  const declarations = (last.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  return declarations.map((declaration) =>
    functionTool({
      name: declaration.name,
      description: `Recorded tool ${declaration.name}.`,
      parameters: (declaration.parameters_json_schema ?? declaration.parametersJsonSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
      execute: (_args: unknown, context) => {
        if (declaration.name === 'final_result') {
          context.actions.skipSummarization = true;
          return { done: true };
        }
        return results.get(declaration.name)!.shift()!;
      },
    }),
  );
}

async function turn(runner: Runner, text: string, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text }] }, streaming })) events.push(event);
  return events;
}

describe('GeminiModel on recorded Gemini API traffic', () => {
  let server: WireServer;
  afterEach(() => server.close());
  const modelAt = (url: string, model = 'gemini-2.5-pro') => new GeminiModel({ model, apiKey: 'k', baseUrl: url, retry: false, httpOptions: { fetch: (input, init) => fetch(input, init) } });

  it.each([
    ['parallel-calls-no-ids-signature-first', false],
    ['sequential-calls-signature', false],
    ['call-without-id', false],
    ['call-signature-then-text-signature', false],
    ['stream-calls-without-ids', true],
    ['stream-call-thought-signature', true],
  ])('sends the calls of %s back with their signatures, in order, without made-up ids, each answered once', async (name, streaming) => {
    const recording = recorded(name);
    server = await startReplayServer(recording.interactions);
    const runner = new Runner({ appName: 'calls', agent: new LlmAgent({ name: 'assistant', model: modelAt(server.url), tools: recordedTools(recording) }) });

    const events = await turn(runner, body(recording, 0).contents[0].parts[0].text || 'Go.', streaming);

    expect(server.handlerErrors).toEqual([]);
    expect(server.requests).toHaveLength(recording.interactions.length);
    for (let index = 1; index < recording.interactions.length; index++) {
      // Everything after the user's first message: the model's calls and this run's answers, as the real API accepted them.
      expect(server.requests[index].body.contents.slice(1)).toEqual(asSentByAdapter(body(recording, index).contents.slice(1)));
    }
    // Each call (ids made up where Gemini sent none) is answered exactly once, by id.
    const calls = events.flatMap((event) => event.functionCalls());
    const answered = events.flatMap((event) => event.functionResponses()).map((response) => response.id);
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
    expect(answered.sort()).toEqual(calls.map((call) => call.id).sort());
  });

  it('gives parallel calls without ids distinct ids and keeps the one signature on the first call', async () => {
    const recording = recorded('parallel-calls-no-ids-signature-first');
    server = await startReplayServer(recording.interactions);
    const runner = new Runner({ appName: 'calls', agent: new LlmAgent({ name: 'assistant', model: modelAt(server.url), tools: recordedTools(recording) }) });
    const events = await turn(runner, 'Go.');

    const [first] = events.filter((event) => event.functionCalls().length > 0);
    const parts = first.content!.parts;
    expect(parts.map((part) => part.functionCall?.name)).toEqual(['generate_topic', 'generate_topic', 'generate_topic']);
    expect(parts.map((part) => part.thoughtSignature !== undefined)).toEqual([true, false, false]);
    expect(new Set(parts.map((part) => part.functionCall!.id)).size).toBe(3);
    // The three answers go back in one user turn, in call order, paired by position and name.
    expect(server.requests[1].body.contents[2].parts.map((part: GeminiPart) => part.functionResponse.response)).toEqual(
      body(recording, 1).contents[2].parts.map((part) => part.functionResponse.response),
    );
  });

  it('sends thought parts and the signed text back unchanged in the next turn', async () => {
    const recording = recorded('thinking-text-signature');
    server = await startReplayServer(recording.interactions);
    const runner = new Runner({ appName: 'think', agent: new LlmAgent({ name: 'assistant', model: modelAt(server.url) }) });
    const user = (index: number) => body(recording, 1).contents[index].parts[0].text as string;

    await turn(runner, user(0));
    await turn(runner, user(2));

    expect(server.handlerErrors).toEqual([]);
    expect(server.requests[1].body.contents).toEqual(asSentByAdapter(body(recording, 1).contents));
  });

  it('keeps a signature that arrives on a part of its own (empty text) and sends it back', async () => {
    const recording = recorded('stream-signature-only-part');
    server = await startWireServer((_request, index) => (index === 0 ? recordedReply(recording.interactions[0]) : { json: { candidates: [{ content: { role: 'model', parts: [{ text: 'Sure.' }] }, finishReason: 'STOP' }] } }));
    const runner = new Runner({ appName: 'think', agent: new LlmAgent({ name: 'assistant', model: modelAt(server.url, 'gemini-3-pro-preview') }) });

    const events = await turn(runner, 'How many r in strawberry?', true);
    await turn(runner, 'Thanks.');

    expect(server.handlerErrors).toEqual([]);
    const signature = /"thoughtSignature":"([^"]+)"/.exec(recording.interactions[0].response.sse!)![1];
    const [step] = events.filter((event) => !event.partial);
    expect(step.content!.parts).toEqual([{ text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y' }, { text: '', thoughtSignature: signature, thoughtSignatureProvider: 'gemini' }]);
    expect(server.requests[1].body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y' }, { text: '', thoughtSignature: signature }] });
  });

  it.each([
    ['call-thought-signature-gemini3', false],
    ['stream-call-thought-signature-gemini3', true],
  ])('sends the signed call of %s back exactly as Gemini sent it', async (name, streaming) => {
    const recording = recorded(name);
    const weather = functionTool({
      name: 'weather',
      description: 'Weather at a location.',
      parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      execute: ({ location }: { location: string }) => ({ location, tempC: 18 }),
    });
    server = await startWireServer((_request, index) => (index === 0 ? recordedReply(recording.interactions[0]) : { json: { candidates: [{ content: { role: 'model', parts: [{ text: 'Mild.' }] }, finishReason: 'STOP' }] } }));
    await turn(new Runner({ appName: 'w', agent: new LlmAgent({ name: 'assistant', model: modelAt(server.url, 'gemini-3-pro-preview'), tools: [weather] }) }), 'Weather in SF?', streaming);

    expect(server.handlerErrors).toEqual([]);
    const sentParts = streaming
      ? JSON.parse(/^data: (.*)$/m.exec(recording.interactions[0].response.sse!)![1]).candidates[0].content.parts
      : (recording.interactions[0].response.json as { candidates: Array<{ content: { parts: GeminiPart[] } }> }).candidates[0].content.parts;
    expect(server.requests[1].body.contents[1]).toEqual({ role: 'model', parts: sentParts });
    expect(server.requests[1].body.contents[2]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'weather', response: { location: 'San Francisco', tempC: 18 } } }] });
  });

  it('streams thoughts as thought partials and keeps them apart from the answer', async () => {
    const recording = recorded('stream-thoughts');
    server = await startReplayServer(recording.interactions);
    const events = await turn(new Runner({ appName: 'think', agent: new LlmAgent({ name: 'assistant', model: modelAt(server.url) }) }), body(recording, 0).contents[0].parts[0].text, true);

    expect(server.handlerErrors).toEqual([]);
    const [step] = events.filter((event) => !event.partial);
    expect(step.content!.parts.some((part) => part.thought)).toBe(true);
    expect(step.text()).not.toBe('');
    expect(events.some((event) => event.partial && event.content!.parts.every((part) => part.thought))).toBe(true);
  });

  it('maps the recorded 429 RESOURCE_EXHAUSTED (quota) to a RateLimitError with the RetryInfo delay', async () => {
    const error = await recordedError('error-429-quota');
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ statusCode: 429, retryAfterMs: 34400, provider: 'gemini' });
    expect(error.message).toContain('You exceeded your current quota');
  });

  it('maps the recorded 400 INVALID_ARGUMENT to BAD_REQUEST with the API message', async () => {
    const error = await recordedError('error-400-invalid-argument');
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400, isRetryable: false, provider: 'gemini' });
    expect(error.message).toContain('Cannot fetch content from the provided URL');
  });

  it('maps the recorded 503 UNAVAILABLE ("The model is overloaded") to PROVIDER_OVERLOADED, retryable', async () => {
    const error = await recordedError('error-503-overloaded');
    expect(error).toMatchObject({ code: 'PROVIDER_OVERLOADED', statusCode: 503, isRetryable: true, provider: 'gemini' });
    expect(error.message).toContain('The model is overloaded');
  });

  async function recordedError(name: string): Promise<ProviderError> {
    const recording = recorded(name);
    server = await startReplayServer(recording.interactions);
    let caught: unknown;
    const agent = new LlmAgent({
      name: 'assistant',
      model: modelAt(server.url),
      callbacks: {
        onModelError: ({ error }) => {
          caught = error;
          return undefined;
        },
      },
    });
    await turn(new Runner({ appName: 'errors', agent }), 'hi');
    expect(server.requests).toHaveLength(1);
    return caught as ProviderError;
  }
});
