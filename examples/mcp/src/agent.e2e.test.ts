import { type WireServer, startWireServer } from '@toolsmith/core/testing';
import type { McpServerHandle } from '@toolsmith/mcp';
import { main } from './agent';
import { serveWeatherTools } from './serve';

/** A Chat Completions answer of a fake OpenAI server. */
const completion = (message: Record<string, unknown>, finishReason: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test',
  choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason }],
});

describe('examples/mcp agent.js: the model it runs on', () => {
  let server: McpServerHandle;
  let openai: WireServer | undefined;
  beforeAll(async () => {
    server = await serveWeatherTools({ http: { port: 0 } });
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await openai?.close();
    openai = undefined;
  });

  async function run(env: NodeJS.ProcessEnv) {
    const lines: string[] = [];
    await main({ argv: ['--url', server.url!.href, 'Weather in Paris?'], env, print: (line) => lines.push(line) });
    return lines;
  }

  it('calls the provider when its key and base URL are set, with the MCP tools, and says so', async () => {
    openai = await startWireServer((request, index) =>
      index === 0
        ? { json: completion({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather_getWeatherReport', arguments: '{"city":"Paris"}' } }] }, 'tool_calls') }
        : { json: completion({ content: 'Sunny in Paris, 25 °C.' }, 'stop') },
    );
    const lines = await run({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${openai.url}/v1`, TOOLSMITH_MODEL: 'gpt-test' });

    expect(lines[0]).toBe(`Toolsmith MCP weather agent — OpenAI gpt-test at ${openai.url}/v1`);
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[0]).toMatchObject({ path: '/v1/chat/completions', headers: { authorization: 'Bearer sk-test' } });
    expect(openai.requests[0].body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toContain('weather_getWeatherReport');
    // The second request carries the MCP server's answer to the call.
    expect(openai.requests[1].rawBody).toContain('The current weather in Paris is sunny');
    expect(lines).toContain('Agent: Sunny in Paris, 25 °C.');
  });

  it('runs offline on the scripted model without a key, and says so on its first line', async () => {
    const lines = await run({});
    expect(lines[0]).toMatch(/^Toolsmith MCP weather agent — offline: a ScriptedModel stands in for the LLM \(set OPENAI_API_KEY/);
    expect(lines).toContain('Agent: The current weather in Paris is sunny with a temperature of 25 degrees Celsius.');
  });
});
