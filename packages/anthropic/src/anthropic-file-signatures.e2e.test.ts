import { type Content, type Event, InMemorySessionService, LlmAgent, Runner, toolFile } from '@toolsmith/core';
import { type WireServer, fileReturningTool, startWireServer } from '@toolsmith/core/testing';
import { AnthropicModel } from './anthropic-model';
import { anthropicMessage } from './__fixtures__/anthropic-message';

// A JPEG photo uploaded as photo.png is labelled image/png. Anthropic refuses such a block with a 400 on every
// request that holds it; the session keeps every message, so once stored it would fail every later turn.
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex').toString('base64');
const MISMATCH = '{"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content.1.image.source.base64.data: Image does not match the provided media type image/png"}}';

/** The image blocks of a request, wherever they are (a user message or a tool_result). */
function imageBlocks(body: { messages: { content: unknown }[] }): { source: { media_type: string; data: string } }[] {
  const blocks = body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  return blocks.flatMap((block) => [block, ...(Array.isArray(block.content) ? block.content : [])]).filter((block) => block.type === 'image');
}

describe('a file whose bytes are not its media type never reaches Anthropic: the session keeps working', () => {
  let server: WireServer;
  afterEach(() => server.close());

  /** A wire server that answers as Anthropic does (a 400 for a JPEG sent as image/png, else a text answer), its first answer `first` if given. */
  const start = async (first?: object) => {
    server = await startWireServer((request, index) => {
      const mislabeled = imageBlocks(request.body).some((block) => block.source.media_type === 'image/png' && block.source.data.startsWith('/9j/'));
      if (mislabeled) return { status: 400, text: MISMATCH };
      return { json: index === 0 && first ? first : anthropicMessage([{ type: 'text', text: `Answer ${index}.` }], { id: `msg_${index}` }) };
    });
    return new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
  };

  async function send(runner: Runner, newMessage: Content): Promise<Event[]> {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage })) events.push(event);
    return events;
  }

  it("a user's JPEG declared image/png is INVALID_MESSAGE, nothing is sent; the next turns are answered", async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'photos', sessionService, agent: new LlmAgent({ name: 'assistant', model: await start() }) });
    const photo = (mimeType: string): Content => ({ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType, data: JPEG, displayName: 'photo.png' } }] });

    const refused = await send(runner, photo('image/png'));
    expect(refused.map((event) => event.errorCode)).toEqual(['INVALID_MESSAGE']);
    expect(refused[0].errorMessage).toContain('part 1 has inlineData declared image/png whose bytes are a JPEG image (image/jpeg)');
    expect(server.requests).toHaveLength(0);

    expect((await send(runner, { role: 'user', parts: [{ text: 'Hello?' }] })).at(-1)?.text()).toBe('Answer 0.');
    expect((await send(runner, photo('image/jpeg'))).at(-1)?.text()).toBe('Answer 1.');
    expect(imageBlocks(server.requests[1].body).map((block) => block.source.media_type)).toEqual(['image/jpeg']);
    expect(server.handlerErrors).toEqual([]);
  });

  it("a tool's JPEG declared image/png is an error tool_result with no image; this turn and the next are answered", async () => {
    const tool = fileReturningTool(() => [toolFile({ mimeType: 'image/png', data: JPEG, name: 'photo.png' })]);
    const model = await start(anthropicMessage([{ type: 'tool_use', id: 'toolu_1', name: 'render_report', input: {} }], { id: 'msg_0', stopReason: 'tool_use' }));
    const runner = new Runner({ appName: 'photos', agent: new LlmAgent({ name: 'assistant', model, tools: [tool] }) });

    expect((await send(runner, { role: 'user', parts: [{ text: 'Show me the photo.' }] })).at(-1)?.text()).toBe('Answer 1.');
    const [result] = server.requests[1].body.messages.at(-1).content;
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(JSON.parse(result.content)).toMatchObject({ error: { code: 'INVALID_TOOL_RESULT' } });
    expect(imageBlocks(server.requests[1].body)).toEqual([]);
    expect((await send(runner, { role: 'user', parts: [{ text: 'And now?' }] })).at(-1)?.text()).toBe('Answer 2.');
    expect(server.handlerErrors).toEqual([]);
  });
});
