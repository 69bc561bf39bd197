import { join } from 'node:path';
import { type Event, LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { type Recording, type WireReply, type WireServer, readRecording, recordedReply, startWireServer } from '@toolsmith/core/testing';
import { OpenAIModel } from './openai-model';
import { providerTool } from './provider-tool';
import { responsesReasoningProblems } from './__fixtures__/openai-responses-rules';

// Replays answers recorded from the real OpenAI Responses API (see __fixtures__/recorded/SOURCES.md) to the
// official SDK through OpenAIModel inside a Runner; where the recording holds the next request the real
// API accepted, the output items this adapter sends back (types, ids, call ids, order) are compared with it.
const recorded = (name: string): Recording => readRecording(join(__dirname, '__fixtures__', 'recorded', `${name}.json`));

type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- recorded wire items of every shape
type ResponsesBody = { model: string; instructions?: string; input: Item[] | string; tools?: Item[] };
const body = (recording: Recording, index: number) => recording.interactions[index].request!.body as ResponsesBody;
const outputOf = (recording: Recording, index: number) => (recording.interactions[index].response.json as { output: Item[] }).output;

/** The text of a recorded user input item (a string or input_text parts). */
const userText = (item: Item): string => (typeof item.content === 'string' ? item.content : item.content.map((part: Item) => part.text).join(''));

/**
 * The items of a request's input that came from the model or answer its calls, as `type:id` (`type:call_id`
 * for calls and their outputs, plus the `fc_` id where `withIds` has the call id): the sequence the API
 * checks reasoning pairs against. User and system messages, and id-less assistant text, are left out.
 */
function itemKeys(input: Item[], withIds: ReadonlySet<string>): string[] {
  return input
    .filter((item) => item.id !== undefined || (item.type !== undefined && item.type !== 'message'))
    .map((item) => {
      if (item.type === 'function_call') return `function_call:${item.call_id}${withIds.has(item.call_id) ? `:${item.id}` : ''}`;
      if (item.type === 'function_call_output') return `function_call_output:${item.call_id}`;
      return `${item.type ?? 'message'}:${item.id}`;
    });
}
const callsWithIds = (input: Item[]) => new Set(input.filter((item) => item.type === 'function_call' && item.id).map((item) => item.call_id as string));

/** Function tools named as the recording's, answering each call with the output the recording sent for it; hosted tools as recorded. */
function recordedTools(recording: Recording) {
  const last = body(recording, recording.interactions.length - 1);
  const outputs = new Map<string, string>();
  if (Array.isArray(last.input)) for (const item of last.input) if (item.type === 'function_call_output') outputs.set(item.call_id, item.output);
  return (body(recording, 0).tools ?? []).map((tool) =>
    tool.type === 'function'
      ? functionTool({
          name: tool.name,
          description: `Recorded tool ${tool.name}.`,
          parameters: tool.parameters,
          execute: (_args: unknown, context) => {
            const output = outputs.get(context.functionCallId!);
            return output === undefined ? { ok: true } : { recorded: output };
          },
        })
      : providerTool(tool as Parameters<typeof providerTool>[0]),
  );
}

async function turn(runner: Runner, text: string, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text }] }, streaming })) events.push(event);
  return events;
}

const finalText: WireReply = {
  json: {
    id: 'resp_end',
    object: 'response',
    status: 'completed',
    model: 'gpt-5',
    output: [{ id: 'msg_end', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }],
  },
};

describe('OpenAIModel on recorded Responses API traffic', () => {
  let server: WireServer;
  afterEach(() => server.close());
  const runnerAt = (recording: Recording) =>
    new Runner({
      appName: 'recorded',
      agent: new LlmAgent({
        name: 'assistant',
        model: new OpenAIModel({ model: body(recording, 0).model, api: 'responses', apiKey: 'k', baseURL: `${server.url}/v1`, retry: false }),
        instruction: body(recording, 0).instructions,
        tools: recordedTools(recording),
      }),
    });

  it.each([
    ['responses-reasoning-function-call', false],
    ['responses-reasoning-function-call-status', false],
    ['responses-phase-commentary-call', false],
    ['responses-parallel-calls', false],
    ['responses-function-call-no-reasoning', false],
    ['responses-stream-phase', true],
  ])('sends the output items of %s back as the real API accepted them: reasoning, message (phase), call, in order, with ids', async (name, streaming) => {
    const recording = recorded(name);
    server = await startWireServer((_request, index) => recordedReply(recording.interactions[index]));
    const input = body(recording, 0).input as Item[];

    await turn(runnerAt(recording), userText(input[input.length - 1]), streaming);

    expect(server.handlerErrors).toEqual([]);
    expect(server.requests).toHaveLength(2);
    const accepted = body(recording, 1).input as Item[];
    expect(itemKeys(server.requests[1].body.input, callsWithIds(accepted))).toEqual(itemKeys(accepted, callsWithIds(accepted)));
  });

  it.each([
    ['responses-reasoning-message-then-user'],
    ['responses-web-search-reasoning'],
    ['responses-code-interpreter-reasoning'],
    ['responses-mcp-reasoning'],
  ])('sends the reasoning, hosted-tool and message items of %s back in the next turn as the real API accepted them', async (name) => {
    const recording = recorded(name);
    server = await startWireServer((_request, index) => recordedReply(recording.interactions[index]));
    const accepted = body(recording, 1).input as Item[];

    const runner = runnerAt(recording);
    await turn(runner, userText(accepted[0]));
    await turn(runner, userText(accepted[accepted.length - 1]));

    expect(server.handlerErrors).toEqual([]);
    const sent = server.requests[1].body.input as Item[];
    expect(itemKeys(sent, new Set())).toEqual(itemKeys(accepted, new Set()));
    // Hosted-tool and reasoning items go back whole, as the API returned them (encrypted content included).
    const sentById = new Map(sent.filter((item) => item.id).map((item) => [item.id, item]));
    for (const item of outputOf(recording, 0).filter((output) => output.type !== 'message')) expect(sentById.get(item.id)).toEqual(item);
  });

  it.each([
    ['responses-web-search-many-reasoning', false],
    ['responses-web-search-allowed-domains', false],
    ['responses-mcp-connector', false],
    ['responses-gpt5-pro-reasoning', false],
    ['responses-reasoning-summary-auto', false],
    ['responses-stream-code-interpreter-reasoning', true],
    ['responses-stream-function-call', true],
    ['responses-reasoning-after-history', false],
  ])('keeps every output item of %s (reasoning interleaved with hosted tools, summaries) and sends them back in order', async (name, streaming) => {
    const recording = recorded(name);
    server = await startWireServer((_request, index) => (index === 0 ? recordedReply(recording.interactions[0]) : finalText));
    const input = body(recording, 0).input as Item[];

    const runner = runnerAt(recording);
    const events = await turn(runner, userText(input[input.length - 1]), streaming);
    await turn(runner, 'Thanks.');

    expect(server.handlerErrors).toEqual([]);
    const sse = recording.interactions[0].response.sse;
    const output: Item[] = sse ? completedOutput(sse) : outputOf(recording, 0);
    const step = events.find((event) => !event.partial && event.content?.role === 'model')!;
    const kept = step.content!.parts.filter((part) => part.providerData).map((part) => part.providerData!.data.id);
    expect(kept).toEqual(output.map((item) => item.id));
    // Summaries are readable thought parts; the answer is text.
    const summaries = output.filter((item) => item.type === 'reasoning').map((item) => item.summary.map((piece: Item) => piece.text).join('\n'));
    expect(step.content!.parts.filter((part) => part.thought).map((part) => part.text)).toEqual(summaries.filter(Boolean));
    const sent = server.requests[1].body.input as Item[];
    expect(sent.filter((item) => item.id).map((item) => item.id)).toEqual(output.map((item) => item.id));
  });

  it('never sends the shape the real API refused ("reasoning … without its required following item"): the message keeps its msg_ id right after its reasoning', async () => {
    const recording = recorded('responses-reasoning-without-following-item-400');
    const refused = body(recording, 1).input as Item[];
    // The recorded 400: the reasoning item followed by the assistant text without its item id.
    expect(recording.interactions[1].response.json).toMatchObject({ error: { message: expect.stringContaining('without its required following item'), param: 'input' } });
    expect(refused.map((item) => item.type ?? item.role)).toEqual(['user', 'reasoning', 'assistant', 'user']);
    server = await startWireServer((_request, index) => recordedReply(recording.interactions[index === 0 ? 0 : 2]));

    const runner = runnerAt(recording);
    await turn(runner, userText(refused[0]));
    await turn(runner, userText(refused[3]));

    expect(server.handlerErrors).toEqual([]);
    const sent = server.requests[1].body.input as Item[];
    const [reasoning, message] = outputOf(recording, 0);
    expect(sent.map((item) => item.type ?? item.role)).toEqual(['user', 'reasoning', 'message', 'user']);
    expect(sent[1]).toEqual(reasoning);
    expect(sent[2]).toMatchObject({ type: 'message', id: message.id, role: 'assistant', content: message.content });
  });
});

describe('OpenAIModel on a recorded store:false loop (encrypted reasoning, streamed)', () => {
  let server: WireServer;
  afterEach(() => server.close());

  it('sends every reasoning item back with its encrypted content, right before the call that followed it, in each request of the loop', async () => {
    const recording = recorded('responses-store-false-reasoning-calls-stream');
    // The items as each stream's output_item.done events gave them, which the adapter keeps. (The real API
    // encrypts a reasoning item's content again for response.completed: the two texts differ.)
    const outputs = recording.interactions.map((exchange) => doneItems(exchange.response.sse!));
    expect(outputs.map((items) => items.map((item) => item.id))).toEqual(recording.interactions.map((exchange) => completedOutput(exchange.response.sse!).map((item) => item.id)));
    const created = JSON.parse(recording.interactions[0].response.sse!.split('\n').find((line) => line.startsWith('data: '))!.slice(6)).response;
    expect(created.store).toBe(false);
    expect(outputs[0].map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(outputs[0][0].encrypted_content).toEqual(expect.any(String));
    server = await startWireServer((_request, index) => recordedReply(recording.interactions[index]));
    const calculator = functionTool({
      name: 'calculator',
      description: created.tools[0].description,
      parameters: created.tools[0].parameters,
      execute: ({ a, b, op }: { a: number; b: number; op: string }) => ({ result: op === 'add' ? a + b : op === 'multiply' ? a * b : op === 'subtract' ? a - b : a / b }),
    });
    const runner = new Runner({
      appName: 'recorded',
      agent: new LlmAgent({ name: 'assistant', model: new OpenAIModel({ model: created.model, api: 'responses', store: false, apiKey: 'k', baseURL: `${server.url}/v1`, retry: false }), tools: [calculator] }),
    });

    const events = await turn(runner, 'Compute (12 + 7) × 3 × 10 with the calculator, one step per call.', true);

    expect(server.handlerErrors).toEqual([]);
    expect(server.requests).toHaveLength(4);
    for (const [index, request] of server.requests.entries()) {
      expect(request.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
      // The rule of the real API (learned from its recorded 400) holds for every request of the loop.
      expect(responsesReasoningProblems(request.body.input, outputs.slice(0, index).flat())).toEqual([]);
    }
    const sent = server.requests[1].body.input as Item[];
    const reasoningAt = sent.findIndex((item) => item.type === 'reasoning');
    expect(sent[reasoningAt]).toEqual(outputs[0][0]);
    expect(sent[reasoningAt + 1]).toMatchObject({ type: 'function_call', id: outputs[0][1].id, call_id: outputs[0][1].call_id });
    expect(events.at(-1)!.text()).toBe(outputs[3][0].content[0].text);
  });
});

describe('OpenAIModel on recorded Responses API errors', () => {
  let server: WireServer;
  afterEach(() => server.close());

  it('reports the recorded 400 of a streamed request as BAD_REQUEST through onModelError, with the API message', async () => {
    const recording = recorded('responses-http-error-stream');
    server = await startWireServer(() => recordedReply(recording.interactions[0]));
    const seen: unknown[] = [];
    const model = new OpenAIModel({ model: 'gpt-4o', api: 'responses', apiKey: 'k', baseURL: `${server.url}/v1`, retry: false });
    const runner = new Runner({ appName: 'e', agent: new LlmAgent({ name: 'assistant', model, callbacks: { onModelError: ({ error }) => void seen.push(error) } }) });
    await turn(runner, 'hi', true);
    expect(seen).toEqual([expect.objectContaining({ code: 'BAD_REQUEST', statusCode: 400, message: expect.stringContaining("Invalid 'temperature'") })]);
  });
});

/** The output of a stream's `response.completed` event. */
function completedOutput(sse: string): Item[] {
  const line = sse.split('\n').find((entry) => entry.startsWith('data: ') && entry.includes('"type":"response.completed"'))!;
  return JSON.parse(line.slice('data: '.length)).response.output;
}

/** The items of a stream's `response.output_item.done` events, in order. */
function doneItems(sse: string): Item[] {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.includes('"type":"response.output_item.done"'))
    .map((line) => JSON.parse(line.slice('data: '.length)).item);
}
