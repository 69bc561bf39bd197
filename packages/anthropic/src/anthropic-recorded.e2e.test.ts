import { join } from 'node:path';
import { type Event, LlmAgent, ProviderError, RateLimitError, Runner, functionTool } from '@toolsmith/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type Recording, type WireServer, readRecording, recordedReply, startReplayServer, startWireServer, waitFor } from '@toolsmith/core/testing';
import type Anthropic from '@anthropic-ai/sdk';
import { AnthropicModel, type AnthropicModelOptions } from './anthropic-model';
import { providerTool } from './provider-tool';

// Replays answers recorded from the real Messages API (see __fixtures__/recorded/SOURCES.md) to the
// official SDK through AnthropicModel inside a Runner; where the recording holds the next request the
// real API accepted, the request this adapter sends is compared with it.
const recorded = (name: string): Recording => readRecording(join(__dirname, '__fixtures__', 'recorded', `${name}.json`));

type RecordedBody = { model: string; max_tokens: number; thinking?: Anthropic.ThinkingConfigParam; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
const body = (recording: Recording, index: number) => recording.interactions[index].request!.body as RecordedBody;
/** The text of the last user message of a recorded request: what the user said in that turn. */
const userText = (recording: Recording, index: number) => {
  const { messages } = body(recording, index);
  return messages[messages.length - 1].content[0].text as string;
};

const webSearch = providerTool({ type: 'web_search_20250305', name: 'web_search' });

async function turn(runner: Runner, text: string, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text }] }, streaming })) events.push(event);
  return events;
}

/** Server tool calls (`server_tool_use`) in the content that no result block answers. */
function danglingServerToolUses(events: Event[]): string[] {
  const blocks = events.flatMap((event) => event.content?.parts ?? []).flatMap((part) => (part.providerData ? [part.providerData.data] : []));
  const answered = new Set(blocks.map((block) => block.tool_use_id));
  return blocks.filter((block) => block.type === 'server_tool_use' && !answered.has(block.id)).map((block) => block.id as string);
}

/** What identifies each block of a message and must survive the round trip: type, ids, signature, thinking, input. */
function blockShapes(message: { role: string; content: Array<Record<string, unknown>> }) {
  const pick = (block: Record<string, unknown>) =>
    Object.fromEntries(['type', 'id', 'tool_use_id', 'name', 'input', 'signature', 'thinking', 'data'].filter((key) => key in block).map((key) => [key, block[key]]));
  return { role: message.role, content: message.content.map(pick) };
}

describe('AnthropicModel on recorded Messages API traffic', () => {
  let server: WireServer;
  afterEach(() => server.close());

  const modelFor = (recording: Recording, options: Partial<AnthropicModelOptions> = {}) => {
    const first = body(recording, 0);
    return new AnthropicModel({ model: first.model, maxTokens: first.max_tokens, thinking: first.thinking, apiKey: 'k', baseURL: server.url, retry: false, ...options });
  };

  describe.each([
    ['pause-turn-web-search', false],
    ['pause-turn-web-search-stream', true],
  ])('pause_turn (%s)', (name, streaming) => {
    it('continues the paused turn with its content sent back unchanged, as one model step', async () => {
      const recording = recorded(name);
      server = await startReplayServer(recording.interactions);
      const runner = new Runner({ appName: 'search', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording), tools: [webSearch] }) });

      const events = await turn(runner, userText(recording, 0), streaming);

      expect(server.handlerErrors).toEqual([]);
      expect(server.requests).toHaveLength(2);
      // The continuation request: the user's message, then the paused assistant content as the real API accepted it
      // (streamed blocks also carry the `caller` the stream announced them with, which the recorded client left out).
      if (streaming) expect(server.requests[1].body.messages.map(blockShapes)).toEqual(body(recording, 1).messages.map(blockShapes));
      else expect(server.requests[1].body.messages).toEqual(body(recording, 1).messages);
      const complete = events.filter((event) => !event.partial);
      expect(complete).toHaveLength(1);
      const [step] = complete;
      expect(step.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      expect(step.errorCode).toBeUndefined();
      expect(danglingServerToolUses(complete)).toEqual([]);
      // The one step holds the paused content, then the continuation.
      const paused = body(recording, 1).messages[1].content;
      expect(step.content!.parts.slice(0, paused.length).map((part) => part.providerData?.data.type ?? (part.thought ? 'thinking' : 'text'))).toEqual(
        paused.map((block) => block.type),
      );
      expect(step.content!.parts.length).toBeGreaterThan(paused.length);
      // Usage counts both calls.
      const sent = recording.interactions.map((exchange) => exchange.response);
      expect(step.usage?.inputTokens).toBeGreaterThan(0);
      if (!streaming) {
        const input = sent.reduce((sum, response) => sum + (response.json as { usage: { input_tokens: number } }).usage.input_tokens, 0);
        expect(step.usage?.inputTokens).toBe(input);
      }
      // The session holds the same single model event, and the next turn sends the whole turn back.
      const session = await runner.sessionService.getSession({ appName: 'search', userId: 'u', sessionId: 's' });
      const modelEvents = session!.events.filter((event) => event.author === 'assistant');
      expect(modelEvents).toHaveLength(1);
      expect(danglingServerToolUses(modelEvents)).toEqual([]);
    });

    it('stops at maxPauseContinuations: the answer so far is kept, without the unanswered server_tool_use, and PAUSE_TURN_LIMIT says why', async () => {
      const recording = recorded(name);
      server = await startReplayServer(recording.interactions.slice(0, 1));
      const runner = new Runner({ appName: 'search', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording, { maxPauseContinuations: 0 }), tools: [webSearch] }) });

      const events = await turn(runner, userText(recording, 0), streaming);

      expect(server.handlerErrors).toEqual([]);
      expect(server.requests).toHaveLength(1);
      const [step] = events.filter((event) => !event.partial);
      expect(step.errorCode).toBe('PAUSE_TURN_LIMIT');
      expect(step.errorMessage).toContain('maxPauseContinuations');
      expect(step.finishReason).toEqual({ unified: 'other', raw: 'pause_turn' });
      const paused = body(recording, 1).messages[1].content;
      // Everything but the last block, the server_tool_use the API had not run yet.
      expect(paused[paused.length - 1].type).toBe('server_tool_use');
      expect(step.content!.parts).toHaveLength(paused.length - 1);
      expect(danglingServerToolUses([step])).toEqual([]);
    });

    /** The usage the recording's paused (first) answer reports, as the adapter maps it. */
    const pausedUsage = (recording: Recording) => {
      const sse = recording.interactions[0].response.sse;
      if (sse === undefined) return (recording.interactions[0].response.json as { usage: { input_tokens: number; output_tokens: number } }).usage;
      const start = sse.split('\n').find((line) => line.startsWith('data: ') && line.includes('"message_start"'))!;
      const delta = sse.split('\n').filter((line) => line.startsWith('data: ') && line.includes('"message_delta"')).at(-1)!;
      // The last message_delta's counts are the call's final ones (server tool results add input tokens).
      const final = JSON.parse(delta.slice(6)).usage as { input_tokens?: number; output_tokens: number };
      return { input_tokens: final.input_tokens ?? (JSON.parse(start.slice(6)).message.usage.input_tokens as number), output_tokens: final.output_tokens };
    };

    it("keeps the paused call's usage when the continuation fails: on the error event, in runUsage and on the spans", async () => {
      const recording = recorded(name);
      server = await startWireServer((_request, index) =>
        index === 0 ? recordedReply(recording.interactions[0]) : { status: 500, json: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } },
      );
      const exporter = new InMemorySpanExporter();
      const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const runner = new Runner({ appName: 'search', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording), tools: [webSearch] }), tracing: { tracerProvider } });

      const events = await turn(runner, userText(recording, 0), streaming);

      expect(server.requests).toHaveLength(2);
      const failed = events.at(-1)!;
      expect(failed.errorCode).toBe('SERVER_ERROR');
      const { input_tokens, output_tokens } = pausedUsage(recording);
      expect(failed.usage).toMatchObject({ inputTokens: input_tokens, outputTokens: output_tokens });
      expect(failed.runUsage).toMatchObject({ inputTokens: input_tokens, outputTokens: output_tokens });
      const spans = exporter.getFinishedSpans();
      for (const spanName of ['chat ' + body(recording, 0).model, 'invoke_agent assistant']) {
        expect(spans.find((span) => span.name === spanName)?.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': input_tokens, 'gen_ai.usage.output_tokens': output_tokens });
      }
    });

    it("keeps the paused call's usage when the run is aborted during the continuation", async () => {
      const recording = recorded(name);
      server = await startWireServer((_request, index) => (index === 0 ? recordedReply(recording.interactions[0]) : { hang: true }));
      const runner = new Runner({ appName: 'search', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording), tools: [webSearch] }) });
      const controller = new AbortController();

      const events: Event[] = [];
      const running = (async () => {
        for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: userText(recording, 0) }] }, streaming, signal: controller.signal })) events.push(event);
      })();
      await waitFor(() => server.requests.length === 2);
      controller.abort(new Error('user pressed Stop'));
      await running;

      const aborted = events.at(-1)!;
      expect(aborted.errorCode).toBe('RUN_ABORTED');
      expect(aborted.usage).toMatchObject({ inputTokens: pausedUsage(recording).input_tokens });
      const { input_tokens, output_tokens } = pausedUsage(recording);
      expect(aborted.runUsage).toMatchObject({ inputTokens: input_tokens, outputTokens: output_tokens });
    });
  });

  it('refuses a maxPauseContinuations that is not a whole number', () => {
    expect(() => new AnthropicModel({ model: 'm', maxTokens: 1, apiKey: 'k', maxPauseContinuations: -1 })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID' }),
    );
  });

  it.each([
    ['thinking', 'thinking'],
    ['redacted-thinking', 'redacted_thinking'],
  ])('sends %s back unchanged, signature included, in the next turn', async (name, blockType) => {
    const recording = recorded(name);
    server = await startReplayServer(recording.interactions);
    const runner = new Runner({ appName: 'think', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording) }) });

    await turn(runner, userText(recording, 0));
    await turn(runner, userText(recording, 1));

    expect(server.handlerErrors).toEqual([]);
    expect(server.requests[1].body.messages).toEqual(body(recording, 1).messages);
    expect(server.requests[1].body.thinking).toEqual(body(recording, 1).thinking);
    expect(server.requests[1].body.messages[1].content[0].type).toBe(blockType);
  });

  it.each(['thinking-stream', 'redacted-thinking-stream'])('assembles streamed thinking with its signature (%s) as the non-streamed answer has it', async (name) => {
    const recording = recorded(name);
    server = await startReplayServer(recording.interactions);
    const events = await turn(new Runner({ appName: 'think', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording) }) }), userText(recording, 0), true);

    const [step] = events.filter((event) => !event.partial);
    const sse = recording.interactions[0].response.sse!;
    const signatures = [...sse.matchAll(/"signature":"([^"]+)"/g)].map((match) => match[1]).filter(Boolean);
    const thoughts = step.content!.parts.filter((part) => part.thought || part.providerData?.data.type === 'redacted_thinking');
    expect(thoughts.length).toBeGreaterThan(0);
    for (const part of thoughts) {
      if (part.thought) expect(signatures.join('')).toContain(part.thoughtSignature);
      else expect(sse).toContain(part.providerData!.data.data as string);
    }
    expect(step.text()).not.toBe('');
    expect(events.some((event) => event.partial && event.content?.parts.some((part) => part.thought))).toBe(name === 'thinking-stream');
  });

  it('keeps thinking, text and tool_use in order with the signature when it answers a tool call (interleaved thinking)', async () => {
    const recording = recorded('thinking-tool-use');
    const recordedResult = body(recording, 1).messages[2].content[0];
    const getUserCountry = functionTool({
      name: 'get_user_country',
      description: 'The user country.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => ({ country: recordedResult.content }),
    });
    server = await startReplayServer(recording.interactions);
    const runner = new Runner({ appName: 'think', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording), tools: [getUserCountry] }) });

    const events = await turn(runner, userText(recording, 0));

    expect(server.handlerErrors).toEqual([]);
    const [user, assistant, results] = server.requests[1].body.messages;
    const expected = body(recording, 1).messages;
    expect(user).toEqual(expected[0]);
    expect(assistant).toEqual(expected[1]);
    expect(assistant.content.map((block: { type: string }) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(results.content).toEqual([{ type: 'tool_result', tool_use_id: recordedResult.tool_use_id, content: JSON.stringify({ country: 'Mexico' }) }]);
    expect(events[events.length - 1].text()).toContain('Mexico City');
  });

  it.each([
    ['code-execution', 'bash_code_execution_tool_result'],
    ['web-search-stream', 'web_search_tool_result'],
  ])('keeps server tool blocks (%s) whole, in order, to send back', async (name, resultType) => {
    const recording = recorded(name);
    server = await startReplayServer(recording.interactions);
    const streaming = name.endsWith('-stream');
    const toolType = body(recording, 0) as unknown as { tools: Array<{ type: string; name: string }> };
    const tools = toolType.tools.map((tool) => providerTool(tool as never));
    const events = await turn(new Runner({ appName: 'tools', agent: new LlmAgent({ name: 'assistant', model: modelFor(recording), tools }) }), userText(recording, 0), streaming);

    expect(server.handlerErrors).toEqual([]);
    const [step] = events.filter((event) => !event.partial);
    const types = step.content!.parts.map((part) => part.providerData?.data.type ?? (part.thought ? 'thinking' : 'text'));
    expect(types).toContain('server_tool_use');
    expect(types).toContain(resultType);
    expect(types.indexOf('server_tool_use')).toBeLessThan(types.indexOf(resultType));
    expect(danglingServerToolUses([step])).toEqual([]);
    if (!streaming) {
      const content = (recording.interactions[0].response.json as { content: Array<Record<string, unknown>> }).content;
      const serverBlocks = content.filter((block) => !['text', 'thinking', 'tool_use'].includes(block.type as string));
      expect(step.content!.parts.filter((part) => part.providerData).map((part) => part.providerData!.data)).toEqual(serverBlocks);
    }
  });

  it.each([
    ['error-400-invalid-request', { code: 'BAD_REQUEST', statusCode: 400, isRetryable: false }, "does not support effort level 'xhigh'"],
    ['error-400-prompt-too-long', { code: 'CONTEXT_LENGTH_EXCEEDED', statusCode: 400, isRetryable: false }, '200251 tokens > 200000 maximum'],
    ['error-429-rate-limit', { code: 'RATE_LIMITED', statusCode: 429, isRetryable: true }, "exceed your account's rate limit"],
    ['error-529-overloaded', { code: 'PROVIDER_OVERLOADED', statusCode: 529, isRetryable: true }, 'Overloaded'],
  ])('maps the recorded answer %s to its typed error, with the API message', async (name, expected, message) => {
    const recording = recorded(name);
    server = await startReplayServer(recording.interactions);
    const error = await turnError(recording);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ ...expected, provider: 'anthropic' });
    expect(error instanceof RateLimitError).toBe(expected.code === 'RATE_LIMITED');
    expect(error.message).toContain(message);
  });

  async function turnError(recording: Recording): Promise<ProviderError> {
    const model = new AnthropicModel({ model: 'claude-sonnet-4-5', maxTokens: 64, apiKey: 'k', baseURL: server.url, retry: false });
    let caught: unknown;
    const agent = new LlmAgent({
      name: 'assistant',
      model,
      callbacks: {
        onModelError: ({ error }) => {
          caught = error;
          return undefined;
        },
      },
    });
    await turn(new Runner({ appName: 'errors', agent }), 'hi');
    expect(server.requests).toHaveLength(recording.interactions.length);
    return caught as ProviderError;
  }
});
