import { type Content, type Event, InMemorySessionService, LlmAgent, Runner } from '@toolsmith/core';
import { type WireServer, startWireServer } from '@toolsmith/core/testing';
import { AnthropicModel } from './anthropic-model';
import { anthropicMessage } from './__fixtures__/anthropic-message';
import { pngOfSize } from './__fixtures__/png-of-size';

// Anthropic refuses an image over 8000 pixels a side, and in a request of more than 20 images one over 2000
// (https://platform.claude.com/docs/en/build-with-claude/vision). The session keeps every message: once stored,
// such an image would fail every later turn, and an image that was taken can be refused once the session holds 21.

type ImageBlock = { type: 'image'; source: { data: string } };
/** The sizes of the images the tests send, by their base64 data: what the server decodes. */
const SIZES = new Map<string, { width: number; height: number }>();
function png(width: number, height: number): string {
  const data = pngOfSize(width, height);
  SIZES.set(data, { width, height });
  return data;
}

/** The image blocks of a request, wherever they are (a user message or a tool_result). */
function imageBlocks(body: { messages: { content: unknown }[] }): ImageBlock[] {
  const blocks = body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  return blocks.flatMap((block) => [block, ...(Array.isArray(block.content) ? block.content : [])]).filter((block) => block.type === 'image');
}

/** What Anthropic answers to a request holding an image over its limits (a 400 naming the limit), or `undefined`. */
function refusal(images: ImageBlock[]): string | undefined {
  if (images.length > 100) return JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `Too many images in request (maximum 100)` } });
  const sides = images.map((block) => {
    const size = SIZES.get(block.source.data);
    return size ? Math.max(size.width, size.height) : 0;
  });
  const [limit, kind] = images.length > 20 ? [2000, ' for many-image requests'] : [8000, ''];
  if (!sides.some((side) => side > limit)) return undefined;
  return JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size${kind}: ${limit} pixels` } });
}

describe('an image over the pixels Anthropic takes goes as a note: the session keeps working', () => {
  let server: WireServer;
  afterEach(() => server.close());

  async function start(): Promise<Runner> {
    server = await startWireServer((request, index) => {
      const refused = refusal(imageBlocks(request.body));
      return refused ? { status: 400, text: refused } : { json: anthropicMessage([{ type: 'text', text: `Answer ${index}.` }], { id: `msg_${index}` }) };
    });
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    return new Runner({ appName: 'photos', sessionService: new InMemorySessionService(), agent: new LlmAgent({ name: 'assistant', model }) });
  }

  async function send(runner: Runner, newMessage: Content): Promise<Event[]> {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage })) events.push(event);
    return events;
  }
  const images = (...data: string[]): Content => ({ role: 'user', parts: [{ text: 'Look.' }, ...data.map((image) => ({ inlineData: { mimeType: 'image/png', data: image } }))] });
  const notes = (request: { body: { messages: { content: { type: string; text?: string }[] }[] } }) =>
    request.body.messages.flatMap((message) => message.content).filter((block) => block.type === 'text' && block.text?.startsWith('[A file'));

  it('an image 9000 pixels wide is a note on this turn and the next; the rest are answered', async () => {
    const runner = await start();
    expect((await send(runner, images(png(9000, 300), png(800, 600)))).at(-1)?.text()).toBe('Answer 0.');
    expect((await send(runner, { role: 'user', parts: [{ text: 'And now?' }] })).at(-1)?.text()).toBe('Answer 1.');
    for (const request of server.requests) {
      expect(imageBlocks(request.body).map((block) => SIZES.get(block.source.data))).toEqual([{ width: 800, height: 600 }]);
      expect(notes(request)).toEqual([{ type: 'text', text: "[A file (image/png, 45 bytes) was attached here; it was left out, as it is 9000x300 pixels, over Anthropic's limit of 8000 pixels a side.]" }]);
    }
    expect(server.handlerErrors).toEqual([]);
  });

  it('a 3000-pixel screenshot is sent while the session holds 20 images, and is a note from the turn that brings it to 21', async () => {
    const runner = await start();
    expect((await send(runner, images(png(3000, 2000)))).at(-1)?.text()).toBe('Answer 0.');
    expect((await send(runner, images(...Array.from({ length: 19 }, (_, index) => png(100, 100 + index))))).at(-1)?.text()).toBe('Answer 1.');
    expect(imageBlocks(server.requests[1].body)).toHaveLength(20);
    expect(notes(server.requests[1])).toEqual([]);
    expect((await send(runner, images(png(640, 480)))).at(-1)?.text()).toBe('Answer 2.');
    expect(imageBlocks(server.requests[2].body)).toHaveLength(20);
    expect(notes(server.requests[2])).toEqual([
      { type: 'text', text: '[A file (image/png, 45 bytes) was attached here; it is not sent in this request, as it is 3000x2000 pixels, and Anthropic takes at most 20 images in a request holding one over 2000 pixels a side (the newest files are sent).]' },
    ]);
    expect(server.handlerErrors).toEqual([]);
  });

  it('a computer-use agent sends a 2560x1440 screenshot on each of 21 turns, then 82 small images: every turn is answered, the newest 20 sent, then the 82 small ones', async () => {
    const runner = await start();
    const shots = Array.from({ length: 21 }, (_, index) => png(2560, 1440 + index));
    for (const [index, shot] of shots.entries()) expect((await send(runner, images(shot))).at(-1)?.text()).toBe(`Answer ${index}.`);
    const sizes = (request: { body: { messages: { content: unknown }[] } }) => imageBlocks(request.body).map((block) => SIZES.get(block.source.data)?.height);
    expect(sizes(server.requests[19])).toEqual(Array.from({ length: 20 }, (_, index) => 1440 + index));
    expect(sizes(server.requests[20])).toEqual(Array.from({ length: 20 }, (_, index) => 1441 + index));
    expect(notes(server.requests[20])).toEqual([
      { type: 'text', text: '[A file (image/png, 45 bytes) was attached here; it is not sent in this request, as Anthropic takes at most 20 images in a request holding one over 2000 pixels a side (the newest files are sent).]' },
    ]);
    // 103 images, the newest first: the 82 small ones are sent, and then no screenshot (it would make 83 images, one over 2000 pixels a side).
    expect((await send(runner, images(...Array.from({ length: 82 }, (_, index) => png(100, 100 + index))))).at(-1)?.text()).toBe('Answer 21.');
    expect(sizes(server.requests[21])).toEqual(Array.from({ length: 82 }, (_, index) => 100 + index));
    expect(notes(server.requests[21]).map((note) => note.text?.split(', as ')[1])).toEqual(
      shots.map((_, index) => `it is 2560x${1440 + index} pixels, and Anthropic takes at most 20 images in a request holding one over 2000 pixels a side (the newest files are sent).]`),
    );
    expect(server.handlerErrors).toEqual([]);
  });
});
