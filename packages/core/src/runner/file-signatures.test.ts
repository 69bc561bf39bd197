import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import type { Content } from '../model/content';
import type { LlmRequest } from '../model/llm-request';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { toolFile, toolResult } from '../tools/tool-file';
import { FnTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

// A file whose bytes are not what its media type says (a JPEG photo uploaded as photo.png) is refused by the
// provider on the turn it is sent and on every later one: it is refused before it is stored.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex').toString('base64');

const key = { appName: 'app', userId: 'u1', sessionId: 's1' };

async function send(runner: Runner, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
  return events;
}

describe('a user file whose bytes are not its declared type', () => {
  const photo = (mimeType: string, data: string): Content => ({ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType, data, displayName: 'photo.png' } }] });

  it('is INVALID_MESSAGE naming the part and what the bytes are; no session is created, the model is not called', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['never']);
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model }) });
    const events = await send(runner, photo('image/png', JPEG));
    expect(events.map((event) => event.errorCode)).toEqual(['INVALID_MESSAGE']);
    expect(events[0].errorMessage).toContain('part 1 has inlineData declared image/png whose bytes are a JPEG image (image/jpeg). Send each file as { inlineData: { mimeType, data } }, its bytes standard base64 and of the type it names.');
    expect(model.callCount).toBe(0);
    expect(await sessionService.getSession(key)).toBeUndefined();
  });

  it('changes nothing of an existing session, which keeps working', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['Hello.', 'A red cup.']);
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model }) });
    await send(runner, { role: 'user', parts: [{ text: 'hi' }] });
    const before = (await sessionService.getSession(key))!.events.length;

    const refused = await send(runner, photo('image/png', JPEG));
    expect(refused.map((event) => event.errorCode)).toEqual(['INVALID_MESSAGE']);
    expect((await sessionService.getSession(key))!.events).toHaveLength(before);

    const answered = await send(runner, photo('image/jpeg', JPEG));
    expect(answered.at(-1)?.content?.parts[0].text).toBe('A red cup.');
    const files = model.requests[1].contents.flatMap((content) => content.parts).filter((part) => part.inlineData);
    expect(files.map((part) => part.inlineData!.mimeType)).toEqual(['image/jpeg']);
  });

  it("refuses a function response's file the same way", async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['never']) }) });
    const events = await send(runner, { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'scan', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }, { inlineData: { mimeType: 'application/pdf', data: PNG } }] } }] });
    expect(events.map((event) => event.errorCode)).toEqual(['INVALID_MESSAGE']);
    expect(events[0].errorMessage).toContain('part 0 has a functionResponse whose file 1 has inlineData declared application/pdf whose bytes are a PNG image (image/png)');
    expect(await sessionService.getSession(key)).toBeUndefined();
  });

  it('stores the media type of a file it takes in lower case (the caller\'s message is not changed)', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['A chart.']);
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model }) });
    const message = photo('Image/PNG', PNG);
    await send(runner, message);
    const stored = (await sessionService.getSession(key))!.events[0].content!.parts[1];
    expect(stored.inlineData).toEqual({ mimeType: 'image/png', data: PNG, displayName: 'photo.png' });
    expect(model.requests[0].contents[0].parts[1].inlineData?.mimeType).toBe('image/png');
    expect(message.parts[1].inlineData?.mimeType).toBe('Image/PNG');
  });
});

describe("a tool's file whose bytes are not its declared type", () => {
  const render = (files: ReturnType<typeof toolFile>[]) => new FnTool('render', () => toolResult({ done: true }, files));

  it('fails the call with INVALID_TOOL_RESULT; the model gets the error response and the next request holds no file', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'It failed.']);
    const tool = render([toolFile({ mimeType: 'image/png', data: PNG }), toolFile({ mimeType: 'image/png', data: JPEG, name: 'photo.png' })]);
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model, tools: [tool] }) });
    const events = await send(runner, { role: 'user', parts: [{ text: 'Draw it' }] });
    const response = events[1].functionResponses()[0];
    expect(response).toMatchObject({ isError: true, response: { error: { code: 'INVALID_TOOL_RESULT', message: 'The tool returned a file that cannot be sent: file 1 has data declared image/png whose bytes are a JPEG image (image/jpeg).' } } });
    expect(response.parts).toBeUndefined();
    const sent = (model.requests[1] as LlmRequest).contents.flatMap((content) => content.parts);
    expect(sent.some((part) => part.inlineData || part.functionResponse?.parts)).toBe(false);
    const stored = JSON.stringify((await sessionService.getSession(key))!.events);
    expect(stored).not.toContain(JPEG);
    expect(stored).not.toContain(PNG);
  });

  it('says when the bytes are of no known type', async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'It failed.']);
    const tool = render([toolFile({ mimeType: 'application/pdf', data: Buffer.from('<html></html>') })]);
    const events = await send(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [tool] }) }), { role: 'user', parts: [{ text: 'Print it' }] });
    expect(events[1].functionResponses()[0].response).toMatchObject({ error: { code: 'INVALID_TOOL_RESULT', message: expect.stringContaining("the file has data declared application/pdf whose bytes do not start as a PDF document's do") } });
  });

  it('stores the media type of a file it takes in lower case, so every adapter compares it as it compares its own', async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'A chart.']);
    const tool = render([toolFile({ mimeType: 'IMAGE/PNG', data: PNG })]);
    const events = await send(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [tool] }) }), { role: 'user', parts: [{ text: 'Draw it' }] });
    expect(events[1].functionResponses()[0].parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG } }]);
  });
});
