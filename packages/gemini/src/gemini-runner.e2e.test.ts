import { type Event, LlmAgent, Runner, type ToolsmithError, functionTool } from '@toolsmith/core';
import { type WireServer, startWireServer } from '@toolsmith/core/testing';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { GeminiModel } from './gemini-model';
import { GoogleGenAI } from './google-genai';

// The adapter inside a real run: Runner → LlmAgent → GeminiModel → SDK → local wire server.
const getWeather = functionTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }: { city: string }) => ({ city, tempC: 21 }),
});
const reply = (parts: unknown[], responseId: string) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }], responseId });

async function run(runner: Runner): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) events.push(event);
  return events;
}

describe('GeminiModel in a Runner', () => {
  let server: WireServer;
  afterEach(() => server.close());
  const model = (url: string) =>
    new GeminiModel({ model: 'gemini-2.5-flash', apiKey: 'k', baseUrl: url, httpOptions: { fetch: (input, init) => fetch(input, init) } });

  it('runs a call that came without an id and sends it back as Gemini sent it, signature included', async () => {
    const call = { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJl' };
    server = await startWireServer((_request, index) => ({ json: index === 0 ? reply([call], 'r1') : reply([{ text: 'Sunny, 21°C.' }], 'r2') }));
    const events = await run(new Runner({ appName: 'weather', agent: new LlmAgent({ name: 'assistant', model: model(server.url), tools: [getWeather] }) }));

    expect(server.handlerErrors).toEqual([]);
    const callEvent = events.find((event) => event.functionCalls().length > 0)!;
    const id = callEvent.functionCalls()[0].id;
    expect(id).toMatch(/^toolsmith_gemini_/);
    expect(events.find((event) => event.functionResponses().length > 0)!.functionResponses()[0]).toMatchObject({ id, response: { city: 'Paris', tempC: 21 } });
    expect(server.requests[1].body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [call] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { city: 'Paris', tempC: 21 } } }] },
    ]);
    expect(events[events.length - 1].text()).toBe('Sunny, 21°C.');
  });

  it('sends code execution parts back in the history, as Gemini sent them', async () => {
    const code = { executableCode: { language: 'PYTHON', code: 'print(21 * 9 / 5 + 32)' }, thoughtSignature: 'Y29kZQ' };
    const result = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '69.8\n' } };
    const call = { functionCall: { name: 'get_weather', args: { city: 'Paris' } } };
    server = await startWireServer((_request, index) => ({
      json: index === 0 ? reply([code, result, { text: '69.8 °F. ' }, call], 'r1') : reply([{ text: 'Sunny.' }], 'r2'),
    }));
    await run(new Runner({ appName: 'weather', agent: new LlmAgent({ name: 'assistant', model: model(server.url), tools: [getWeather] }) }));

    expect(server.handlerErrors).toEqual([]);
    expect(server.requests[1].body.contents[1]).toEqual({ role: 'model', parts: [code, result, { text: '69.8 °F. ' }, call] });
  });

  it('passes provider errors through onModelError', async () => {
    server = await startWireServer(() => ({ status: 500, headers: { 'content-type': 'application/json' }, text: '{"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}' }));
    const seen: ToolsmithError[] = [];
    const agent = new LlmAgent({ name: 'assistant', model: model(server.url), callbacks: { onModelError: ({ error }) => void seen.push(error) } });
    const events = await run(new Runner({ appName: 'weather', agent }));
    expect(seen.map((error) => error.code)).toEqual(['SERVER_ERROR']);
    expect(events[events.length - 1]).toMatchObject({ errorCode: 'SERVER_ERROR' });
  });

  it('names the provider in traces as the GenAI conventions do: gcp.gemini, or gcp.vertex_ai for a Vertex AI client', async () => {
    server = await startWireServer(() => ({ json: reply([{ text: 'Sunny.' }], 'r1') }));
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    await run(new Runner({ appName: 'weather', agent: new LlmAgent({ name: 'assistant', model: model(server.url) }), tracing: { tracerProvider } }));
    const providerNames = exporter.getFinishedSpans().filter((span) => span.name !== 'toolsmith.invocation').map((span) => [span.name, span.attributes['gen_ai.provider.name']]);
    expect(providerNames.sort()).toEqual([
      ['chat gemini-2.5-flash', 'gcp.gemini'],
      ['invoke_agent assistant', 'gcp.gemini'],
    ]);
    const vertex = new GoogleGenAI({ vertexai: true, project: 'demo-project', location: 'us-central1' });
    expect(new GeminiModel({ model: 'gemini-2.5-flash', client: vertex }).telemetryProviderName).toBe('gcp.vertex_ai');
  });

  it('refuses a tool name Gemini would reject (a leading digit) when the runner is built, before any request', async () => {
    server = await startWireServer(() => ({ json: reply([{ text: 'never' }], 'r') }));
    const verify = functionTool({ name: '2fa_verify', description: 'Checks a code.', execute: () => ({ ok: true }) });
    const agent = new LlmAgent({ name: 'assistant', model: model(server.url), tools: [verify] });
    expect(() => new Runner({ appName: 'auth', agent })).toThrow(expect.objectContaining({ code: 'GEMINI_TOOL_NAME_INVALID', message: expect.stringContaining('Tool "2fa_verify"') }));
    expect(server.requests).toHaveLength(0);
  });
});
