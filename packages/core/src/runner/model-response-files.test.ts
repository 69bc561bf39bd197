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

describe("a model response's files are checked as a user's are", () => {
  const refused: Array<[string, unknown, string]> = [
    ['bytes of another type (a JPEG labelled IMAGE/PNG)', { mimeType: 'IMAGE/PNG', data: JPEG }, 'part 1 has inlineData declared IMAGE/PNG whose bytes are a JPEG image (image/jpeg)'],
    ['a PDF whose bytes are no PDF', { mimeType: 'application/pdf', data: SAMPLE_FILES.png }, 'part 1 has inlineData declared application/pdf whose bytes are a PNG image (image/png)'],
    ['no mimeType', { data: SAMPLE_FILES.png }, 'part 1 has inlineData that is not { mimeType: "type/subtype", data'],
    ['a media type that is not type/subtype', { mimeType: 'text/plain,evil', data: 'AAAA' }, 'part 1 has inlineData that is not'],
    ['a media type of 200 characters a side', { mimeType: `${'a'.repeat(200)}/png`, data: 'AAAA' }, 'part 1 has inlineData that is not'],
    ['a data URL as data', { mimeType: 'image/png', data: `data:image/png;base64,${SAMPLE_FILES.png}` }, 'part 1 has inlineData that is not'],
    ['empty data', { mimeType: 'text/plain', data: '' }, 'part 1 has inlineData that is not'],
    ['a name with a line break', { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'chart\n.png' }, 'part 1 has inlineData that is not'],
    ['another member', { mimeType: 'image/png', data: SAMPLE_FILES.png, fileUri: 'gs://bucket/secret' }, 'part 1 has inlineData that is not'],
    ['a string', 'AAAA', 'part 1 has inlineData that is not'],
  ];

  it.each(refused)('afterModel returning a file with %s: INVALID_MODEL_RESPONSE naming the part, nothing of it stored', async (_, inlineData, reason) => {
    const { events, stored } = await run(new ScriptedModel(['first']), { afterModel: () => withFile(inlineData) });
    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_RESPONSE']);
    expect(events[0].errorMessage).toContain(reason);
    expect(stored.map((e) => e.content?.parts.some((p) => p.inlineData) ?? false)).toEqual([false, false]);
  });

  it("a beforeModel or onModelError callback's response, and the model's own, are checked alike", async () => {
    const bad = { mimeType: 'image/png', data: JPEG };
    const before = await run(new ScriptedModel(['unused']), { beforeModel: () => withFile(bad) });
    const onError = await run(new ScriptedModel([new Error('down')]), { onModelError: () => withFile(bad) });
    const own = await run(new ScriptedModel([withFile(bad)]));
    for (const { events } of [before, onError, own]) {
      expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_RESPONSE']);
      expect(events[0].errorMessage).toContain('part 1 has inlineData declared image/png whose bytes are a JPEG image (image/jpeg)');
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
