import { LlmAgent } from '../agents/llm-agent';
import { InMemoryArtifactService } from '../artifacts/in-memory-artifact-service';
import { InMemoryMemoryService } from '../memory/in-memory-memory-service';
import { FnTool, collect } from '../runner/__fixtures__/test-tools';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { loadArtifacts } from './load-artifacts';
import { loadMemory } from './load-memory';
import { preloadMemory } from './preload-memory';
import { exitLoop } from './exit-loop';

async function memoryOfTea() {
  const sessionService = new InMemorySessionService();
  const memoryService = new InMemoryMemoryService();
  const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['Noted.']) });
  await collect(new Runner({ appName: 'app', agent, sessionService }), 'I drink green tea every morning', { sessionId: 'old' });
  await memoryService.addSessionToMemory((await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 'old' }))!);
  return memoryService;
}

describe('built-in tools through the runner', () => {
  it('loadMemory lets the model search past sessions', async () => {
    const memoryService = await memoryOfTea();
    const model = new ScriptedModel([{ calls: [{ name: 'load_memory', args: { query: 'tea' } }] }, 'You drink green tea.']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [loadMemory] }), memoryService });

    const events = await collect(runner, 'What do I drink?', { sessionId: 'new' });

    const memories = events[1].functionResponses()[0].response.memories as Array<{ content: { parts: Array<{ text: string }> } }>;
    expect(memories.map((m) => m.content.parts[0].text)).toEqual(['I drink green tea every morning']);
  });

  it('loadMemory without a memory service answers with a typed error', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'load_memory', args: { query: 'tea' } }] }, 'ok']);
    const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [loadMemory] }) }), 'x');
    expect(events[1].functionResponses()[0].response.error).toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' });
  });

  it('preloadMemory adds matching memories to the instruction and is not declared', async () => {
    const memoryService = await memoryOfTea();
    const model = new ScriptedModel(['Green tea, as usual?']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, instruction: 'Be brief.', tools: [preloadMemory] }), memoryService });

    await collect(runner, 'Suggest a morning drink', { sessionId: 'new' });

    expect(model.requests[0].tools).toEqual([]);
    expect(model.requests[0].systemInstruction).toMatch(/^Be brief\.\n\n.*<PAST_CONVERSATIONS>\n.*user: I drink green tea every morning/s);
  });

  it('tools save artifacts through ToolContext; loadArtifacts lists them and attaches the loaded ones', async () => {
    const artifactService = new InMemoryArtifactService();
    const save = new FnTool('save', async (_a, ctx) => ({ version: await ctx.saveArtifact('report.txt', { text: 'Q3 revenue: 12' }) }));
    const model = new ScriptedModel([
      { calls: [{ name: 'save' }] },
      { calls: [{ name: 'load_artifacts', args: { artifactNames: ['report.txt', 'missing'] } }] },
      'Revenue was 12.',
    ]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [save, loadArtifacts] }), artifactService });

    const events = await collect(runner, 'Save and read the report');

    expect(events[1].actions.artifactDelta).toEqual({ 'report.txt': 0 });
    expect(events[3].functionResponses()[0].response).toEqual({ artifactNames: ['report.txt'], notFound: ['missing'] });
    expect(model.requests[0].systemInstruction).toBeUndefined();
    expect(model.requests[1].systemInstruction).toContain('["report.txt"]');
    expect(model.requests[2].contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Artifact report.txt is:' }, { text: 'Q3 revenue: 12' }] });
  });

  it("loaded files are checked as a user's are: sent in lower case, and a note in place of one whose bytes are not its type; nothing but text and a file is sent", async () => {
    const artifactService = new InMemoryArtifactService();
    const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    const JPEG = Buffer.from('ffd8ffe000104a4649460001', 'hex').toString('base64');
    const save = new FnTool('save', async (_a, ctx) => {
      await ctx.saveArtifact('chart.png', { inlineData: { mimeType: 'IMAGE/PNG', data: PNG, displayName: 'chart.png' } });
      await ctx.saveArtifact('photo.png', { inlineData: { mimeType: 'image/png', data: JPEG } });
      await ctx.saveArtifact('odd', { inlineData: { mimeType: `image/${'x'.repeat(200)}`, data: PNG } });
      await ctx.saveArtifact('call', { functionCall: { id: 'x', name: 'transfer', args: {} } });
      await ctx.saveArtifact('both', { text: 'caption', inlineData: { mimeType: 'image/png', data: PNG, displayName: 7 as unknown as string } });
      return { saved: 5 };
    });
    const model = new ScriptedModel([
      { calls: [{ name: 'save' }] },
      { calls: [{ name: 'load_artifacts', args: { artifactNames: ['chart.png', 'photo.png', 'odd', 'call', 'both'] } }] },
      'Seen.',
    ]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [save, loadArtifacts] }), artifactService });

    await collect(runner, 'Save and show the files');

    expect(model.requests[2].contents.at(-1)!.parts).toEqual([
      { text: 'Artifact chart.png is:' },
      { inlineData: { mimeType: 'image/png', data: PNG, displayName: 'chart.png' } },
      { text: 'Artifact photo.png is:' },
      { text: "[The artifact's file cannot be sent: it is declared image/png whose bytes are a JPEG image (image/jpeg).]" },
      { text: 'Artifact odd is:' },
      { text: `[The artifact's file cannot be sent: its media type "image/${'x'.repeat(52)}… is not "type/subtype".]` },
      { text: 'Artifact call is:' },
      { text: '[The artifact holds no text or file that can be sent.]' },
      { text: 'Artifact both is:' },
      { text: 'caption' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
    ]);
  });
});

describe('built-in tools: their schemas', () => {
  it("are valid JSON Schema (core's constant schemas are checked here, not at import)", () => {
    const { getAjv } = jest.requireActual<typeof import('../validation/schema-validator')>('../validation/schema-validator');
    for (const tool of [loadMemory, loadArtifacts, preloadMemory, exitLoop]) {
      expect([tool.name, getAjv().validateSchema(tool.parameters)]).toEqual([tool.name, true]);
    }
  });
});
