import { join } from 'node:path';
import { DevAgentHost } from './dev-agent-host';

// The examples' agent modules, as their READMEs run them with `npx toolsmith web`. The weather agent comes
// first: it sets the build-time manifest found next to it, which core allows only before any class is
// scanned in the process (the CLI loads one module per process).
const examples = join(__dirname, '..', '..', '..', 'examples');

describe("the examples' agent modules", () => {
  // Their model comes from the environment; without a provider key they run offline on ScriptedModel.
  const keys = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY'];
  const saved = new Map(keys.map((key) => [key, process.env[key]]));
  beforeAll(() => keys.forEach((key) => delete process.env[key]));
  afterAll(() => saved.forEach((value, key) => (value === undefined ? delete process.env[key] : (process.env[key] = value))));

  it('the weather agent runs offline with both toolsets (one scanned from the build-time manifest)', async () => {
    const host = await DevAgentHost.open({ module: join(examples, 'weather-agent', 'src', 'agent.ts'), store: 'memory' });
    try {
      expect((await host.listTools()).map((tool) => tool.name)).toEqual(['getWeatherReport', 'analyzeSentiment']);
      const texts: string[] = [];
      for await (const event of host.run('s', { role: 'user', parts: [{ text: "What's the weather like in London?" }] })) {
        if (!event.partial && event.text()) texts.push(event.text());
      }
      expect(texts.at(-1)).toContain('London is cloudy');
    } finally {
      await host.close();
    }
  });

  it('the approval agent runs offline and pauses a large refund for approval', async () => {
    const host = await DevAgentHost.open({ module: join(examples, 'approval-agent', 'src', 'agent.ts'), store: 'memory' });
    try {
      expect(host.info()).toMatchObject({ appName: 'refunds', agentName: 'refund_agent', model: 'scripted/offline-refund-script' });
      for await (const event of host.run('s', { role: 'user', parts: [{ text: 'Refund 250 for order A-1002' }] })) void event;
      expect((await host.getSession('s')).pending.confirmations).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});
