import { LlmAgent } from '../agents/llm-agent';
import type { LlmAgentOptions } from '../agents/llm-agent';
import type { Event } from '../events/event';
import type { Part } from '../model/content';
import type { LlmResponse } from '../model/llm-response';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { SAMPLE_FILES } from '../testing/conformance/file-returning-tool';
import { ScriptedModel } from '../testing/scripted-model';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

// A JPEG's first bytes: what a photo labelled image/png holds.
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex').toString('base64');

const withFile = (inlineData: unknown): LlmResponse => ({ content: { role: 'model', parts: [{ text: 'here' }, { inlineData } as Part] } });

async function run(model: ScriptedModel, callbacks: LlmAgentOptions['callbacks'] = {}) {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model, callbacks }) });
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('draw') })) events.push(event);
  const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
  return { events, stored: session!.events };
}

const PCM = Buffer.alloc(16, 1).toString('base64');

describe("a model response's files are made files every adapter can send again", () => {
  const refused: Array<[string, unknown]> = [
    ['a data URL as data', { mimeType: 'image/png', data: `data:image/png;base64,${SAMPLE_FILES.png}` }],
    ['data that is not a string', { mimeType: 'image/png', data: 42 }],
    ['a media type that is not a string', { mimeType: 7, data: SAMPLE_FILES.png }],
    ['a name that is not a string', { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 3 }],
    ['another member', { mimeType: 'image/png', data: SAMPLE_FILES.png, fileUri: 'gs://bucket/secret' }],
    ['a string', 'AAAA'],
  ];

  it.each(refused)('afterModel returning a file with %s (no file can be made of it): INVALID_MODEL_RESPONSE naming the part, nothing of it stored', async (_, inlineData) => {
    const { events, stored } = await run(new ScriptedModel(['first']), { afterModel: () => withFile(inlineData) });
    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_RESPONSE']);
    expect(events[0].errorMessage).toContain('part 1 has inlineData that is not { mimeType?: string, data: string');
    expect(stored.map((e) => e.content?.parts.some((p) => p.inlineData) ?? false)).toEqual([false, false]);
  });

  const normalized: Array<[string, unknown, unknown]> = [
    ['JPEG bytes labelled image/png (gemini-3-pro-image-preview)', { mimeType: 'image/png', data: JPEG }, { mimeType: 'image/jpeg', data: JPEG }],
    ['JPEG bytes labelled IMAGE/PNG', { mimeType: 'IMAGE/PNG', data: JPEG }, { mimeType: 'image/jpeg', data: JPEG }],
    ['PNG bytes labelled application/pdf', { mimeType: 'application/pdf', data: SAMPLE_FILES.png }, { mimeType: 'image/png', data: SAMPLE_FILES.png }],
    ['bytes of no known type labelled image/png', { mimeType: 'image/png', data: PCM }, { mimeType: 'application/octet-stream', data: PCM }],
    ['Gemini TTS audio/L16;codec=pcm;rate=24000', { mimeType: 'audio/L16;codec=pcm;rate=24000', data: PCM }, { mimeType: 'audio/l16', data: PCM }],
    ['no mimeType (the bytes are a PNG)', { data: SAMPLE_FILES.png }, { mimeType: 'image/png', data: SAMPLE_FILES.png }],
    ['application/octet-stream (the bytes are a PDF)', { mimeType: 'application/octet-stream', data: SAMPLE_FILES.pdf }, { mimeType: 'application/pdf', data: SAMPLE_FILES.pdf }],
    ['a media type that is not type/subtype', { mimeType: 'text/plain,evil', data: PCM }, { mimeType: 'application/octet-stream', data: PCM }],
    ['a media type of 200 characters a side', { mimeType: `${'a'.repeat(200)}/png`, data: PCM }, { mimeType: 'application/octet-stream', data: PCM }],
    ['URL-safe base64 without padding', { mimeType: 'application/octet-stream', data: '-_-_-w' }, { mimeType: 'application/octet-stream', data: '+/+/+w==' }],
    ['a name with a line break', { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'chart\n.png' }, { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'chart_.png' }],
  ];

  it.each(normalized)("a file with %s is stored as a file, the response's text and usage kept", async (_, inlineData, stored) => {
    const own = await run(new ScriptedModel([{ ...withFile(inlineData), usage: { inputTokens: 10, outputTokens: 1290 } }]));
    const replaced = await run(new ScriptedModel(['first']), { afterModel: () => withFile(inlineData) });
    for (const result of [own, replaced]) {
      expect(result.events.map((e) => e.errorCode)).toEqual([undefined]);
      expect(result.stored[1].content!.parts).toEqual([{ text: 'here' }, { inlineData: stored }]);
    }
    expect(own.events[0].usage).toMatchObject({ inputTokens: 10, outputTokens: 1290 });
  });

  it('a file of no bytes is left out (its part with it when it held nothing else)', async () => {
    const { events, stored } = await run(new ScriptedModel([withFile({ mimeType: 'image/png', data: '' })]));
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(stored[1].content!.parts).toEqual([{ text: 'here' }]);
  });

  it("a beforeModel or onModelError callback's response, and the model's own, are made alike", async () => {
    const bad = { mimeType: 'image/png', data: JPEG };
    const before = await run(new ScriptedModel(['unused']), { beforeModel: () => withFile(bad) });
    const onError = await run(new ScriptedModel([new Error('down')]), { onModelError: () => withFile(bad) });
    const own = await run(new ScriptedModel([withFile(bad)]));
    for (const { events } of [before, onError, own]) {
      expect(events.map((e) => e.errorCode)).toEqual([undefined]);
      expect(events[0].content!.parts[1]).toEqual({ inlineData: { mimeType: 'image/jpeg', data: JPEG } });
    }
  });

  it('a file that is one is stored with its media type in lower case and its name; a null inlineData is left out', async () => {
    const { events, stored } = await run(new ScriptedModel([withFile({ mimeType: 'Image/PNG', data: SAMPLE_FILES.png, displayName: 'chart.png' })]));
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(stored[1].content!.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'chart.png' } });
    const unnamed = await run(new ScriptedModel([{ content: { role: 'model', parts: [{ text: 'none', inlineData: null } as unknown as Part, { inlineData: { mimeType: 'audio/wav', data: SAMPLE_FILES.wav, displayName: null } } as unknown as Part] } }]));
    expect(unnamed.stored[1].content!.parts).toEqual([{ text: 'none' }, { inlineData: { mimeType: 'audio/wav', data: SAMPLE_FILES.wav } }]);
  });
});

describe('a model response part with both text and inlineData', () => {
  it("is refused as a user's part is, the model's own or a callback's", async () => {
    const both = { content: { role: 'model' as const, parts: [{ text: 'caption', inlineData: { mimeType: 'image/png', data: SAMPLE_FILES.png } }] } };
    const own = await run(new ScriptedModel([both]));
    const replaced = await run(new ScriptedModel(['first']), { afterModel: () => both });
    for (const { events, stored } of [own, replaced]) {
      expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_RESPONSE']);
      expect(events[0].errorMessage).toContain('part 0 has more than one of text, functionResponse and inlineData; send each in a part of its own');
      expect(stored.map((e) => e.content?.parts.some((p) => p.inlineData) ?? false)).toEqual([false, false]);
    }
  });
});
