import { join } from 'node:path';
import { type Event, LlmAgent, Runner, functionTool, toolFile } from '@toolsmith/core';
import { type Recording, type WireServer, readRecording, startReplayServer } from '@toolsmith/core/testing';
import { OpenAIModel } from './openai-model';

// Replays answers recorded from the real Chat Completions API (OpenAI's, and Google's OpenAI-compatible
// endpoint; see __fixtures__/recorded/SOURCES.md) to the official SDK through OpenAIModel inside a Runner,
// and compares the next request this adapter sends with the one the real API accepted (or refused).
const recorded = (name: string): Recording => readRecording(join(__dirname, '__fixtures__', 'recorded', `${name}.json`));

type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- recorded wire messages of every shape
type ChatBody = { model: string; messages: Message[]; tools?: Array<{ function: { name: string; parameters: Record<string, unknown>; strict?: boolean } }> };
const body = (recording: Recording, index: number) => recording.interactions[index].request!.body as ChatBody;

/** The base URL of the recorded endpoint on the replay server (`/v1`, or Google's `/v1beta/openai`). */
const baseURL = (server: WireServer, recording: Recording) => `${server.url}${recording.interactions[0].request!.path.replace(/\/chat\/completions$/, '')}`;

/**
 * What must survive the round trip of a tool turn, message by message: the role, the calls (name,
 * arguments text) with the id each tool message answers, and the kinds of content parts.
 */
function shape(messages: Message[]) {
  const ids = new Map<string, string>();
  const callId = (id: string) => (ids.has(id) ? ids.get(id)! : (ids.set(id, `call-${ids.size + 1}`), ids.get(id)!));
  return messages.map((message) => ({
    role: message.role,
    ...(message.tool_calls ? { calls: message.tool_calls.map((call: Message) => ({ id: callId(call.id), name: call.function.name, arguments: call.function.arguments })) } : {}),
    ...(message.tool_call_id !== undefined ? { answers: callId(message.tool_call_id) } : {}),
    ...(Array.isArray(message.content) ? { parts: message.content.map((part: Message) => part.type) } : {}),
  }));
}

/** The assistant text of a recorded answer: the message's content, or a stream's content deltas joined. */
function answerText(recording: Recording, index: number): string {
  const { json, sse } = recording.interactions[index].response;
  if (sse === undefined) return (json as { choices: Array<{ message: { content: string } }> }).choices[0].message.content;
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string | null } }> }).choices[0]?.delta.content ?? '')
    .join('');
}

async function turn(runner: Runner, text: string, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text }] }, streaming })) events.push(event);
  return events;
}

describe('OpenAIModel on recorded Chat Completions traffic', () => {
  let server: WireServer;
  afterEach(() => server.close());

  /** A runner whose agent has the recording's function tools, each answering `answer(name)`. */
  const runnerAt = (recording: Recording, answer: (name: string) => unknown = () => ({ ok: true }), audioInput?: boolean) => {
    const first = body(recording, 0);
    const tools = (first.tools ?? []).map((tool) =>
      functionTool({ name: tool.function.name, description: `Recorded tool ${tool.function.name}.`, parameters: tool.function.parameters, execute: () => answer(tool.function.name) }),
    );
    const strict = (first.tools ?? []).every((tool) => tool.function.strict === true) && (first.tools ?? []).length > 0;
    const model = new OpenAIModel({ model: first.model, apiKey: 'k', baseURL: baseURL(server, recording), retry: false, strict, ...(audioInput === undefined ? {} : { audioInput }) });
    const instruction = first.messages.find((message) => message.role === 'system')?.content as string | undefined;
    return new Runner({ appName: 'recorded', agent: new LlmAgent({ name: 'assistant', model, instruction, tools }) });
  };
  const userText = (recording: Recording) => body(recording, 0).messages.find((message) => message.role === 'user')!.content as string;

  it.each([
    ['chat-call-keep-instructions', false],
    ['chat-stream-call', true],
  ])('%s: sends the call and its tool message back as the real API accepted them (ids paired, arguments text as sent)', async (name, streaming) => {
    const recording = recorded(name);
    server = await startReplayServer(recording.interactions);

    const events = await turn(runnerAt(recording), userText(recording), streaming);

    expect(server.handlerErrors).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(shape(server.requests[1].body.messages)).toEqual(shape(body(recording, 1).messages));
    const answer = events.at(-1)!;
    expect(answer.text()).toBe(answerText(recording, 1));
    expect(answer.runUsage?.totalTokens).toBeGreaterThan(0);
  });

  it("Gemini through Google's OpenAI-compatible endpoint: a call recorded with an empty id gets a generated one, paired with its tool message, as the API accepted", async () => {
    const recording = recorded('chat-gemini-compat-call');
    const call = (recording.interactions[0].response.json as { choices: Array<{ message: Message }> }).choices[0].message;
    // What Google sent: an empty call id, and Gemini 2.5's signature on the message (not on the call), which the accepted request did not send back.
    expect(call.tool_calls[0].id).toBe('');
    expect(call.extra_content.google.thought_signature).toEqual(expect.any(String));
    server = await startReplayServer(recording.interactions);

    const events = await turn(runnerAt(recording, () => ({ time: 'Noon' })), userText(recording));

    expect(server.handlerErrors).toEqual([]);
    const sent = server.requests[1].body.messages as Message[];
    expect(shape(sent)).toEqual(shape(body(recording, 1).messages));
    expect(sent[1].tool_calls[0].id).not.toBe('');
    expect(sent[1].tool_calls[0]).not.toHaveProperty('extra_content');
    expect(sent[1]).not.toHaveProperty('extra_content');
    expect(server.requests[1].path).toBe('/v1beta/openai/chat/completions');
    expect(events.at(-1)!.text()).toContain('Noon');
  });

  /** The file of a recorded data URL, as a tool returns it. */
  const fileOf = (url: string) => {
    const [, mimeType, data] = /^data:([^;]+);base64,(.*)$/s.exec(url)!;
    return toolFile({ mimeType, data });
  };

  it('an image a tool returns goes in a user message after the tool message, as the real API accepted it', async () => {
    const recording = recorded('chat-tool-image-result');
    const accepted = body(recording, 1).messages;
    const image = accepted[3].content.find((part: Message) => part.type === 'image_url').image_url.url as string;
    server = await startReplayServer(recording.interactions);

    const events = await turn(runnerAt(recording, () => fileOf(image)), userText(recording));

    expect(server.handlerErrors).toEqual([]);
    const sent = server.requests[1].body.messages as Message[];
    expect(shape(sent)).toEqual(shape(accepted));
    expect(sent[3].content[1]).toEqual({ type: 'image_url', image_url: { url: image } });
    expect(events.at(-1)!.text()).toContain('kiwi');
  });

  it("audio a tool returns to a model without audio input goes as a note: the recorded request sent it as input_audio, and the real API refused it", async () => {
    const recording = recorded('chat-tool-audio-result-400');
    const refused = body(recording, 1).messages;
    const audio = refused[3].content.find((part: Message) => part.type === 'input_audio').input_audio as { data: string; format: string };
    expect(body(recording, 0).model).not.toMatch(/audio/);
    server = await startReplayServer(recording.interactions);

    await turn(runnerAt(recording, () => toolFile({ mimeType: `audio/${audio.format === 'mp3' ? 'mpeg' : audio.format}`, data: audio.data })), userText(recording));

    const sent = server.requests[1].body.messages as Message[];
    expect(sent.slice(0, 3)).toEqual(refused.slice(0, 3).map((message: Message) => expect.objectContaining({ role: message.role })));
    expect(sent[3].content.map((part: Message) => part.type)).toEqual(['text', 'text']);
    expect(sent[3].content[1].text).toMatch(/^\[The tool returned the file "file-0\.(wav|mpeg)" \(audio\/(wav|mpeg), \d+ bytes\); it was left out, as this model takes no audio\.\]$/);
  });

  it("with audioInput: true the audio goes as input_audio, as recorded; this model refused it: the recorded 400 reaches the run as BAD_REQUEST with the API's message", async () => {
    const recording = recorded('chat-tool-audio-result-400');
    const refused = body(recording, 1).messages;
    const audio = refused[3].content.find((part: Message) => part.type === 'input_audio').input_audio as { data: string; format: string };
    server = await startReplayServer(recording.interactions);

    const events = await turn(runnerAt(recording, () => toolFile({ mimeType: `audio/${audio.format === 'mp3' ? 'mpeg' : audio.format}`, data: audio.data }), true), userText(recording));

    const sent = server.requests[1].body.messages as Message[];
    expect(shape(sent)).toEqual(shape(refused));
    expect(sent[3].content[1]).toEqual({ type: 'input_audio', input_audio: audio });
    const failed = events.at(-1)!;
    expect(failed.errorCode).toBe('BAD_REQUEST');
    expect(failed.errorMessage).toContain('Content blocks are expected to be either text or image_url type');
  });
});
