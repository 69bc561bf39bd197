import type { Event, FunctionResponse } from '@toolsmith/core';
import type { McpServerHandle } from '@toolsmith/mcp';
import { serveWeatherTools } from './serve';
import { createWeatherAgent } from './weather-agent';

describe('examples/mcp: the agent uses the weather tools served over MCP', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveWeatherTools({ http: { port: 0 } });
  });
  afterAll(() => server.close());

  async function ask(question: string) {
    const runner = createWeatherAgent({ server: { url: server.url! } });
    const events: Event[] = [];
    try {
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: question }] } })) {
        events.push(event);
      }
    } finally {
      await runner.close();
    }
    const responses: FunctionResponse[] = events.flatMap((event) => event.functionResponses());
    return { responses, answer: events.at(-1)!.text() };
  }

  it('answers from the served tool', async () => {
    const { responses, answer } = await ask('How is the weather in Paris?');
    expect(responses).toEqual([
      expect.objectContaining({ name: 'weather_getWeatherReport', response: expect.objectContaining({ status: 'success' }) }),
    ]);
    expect(answer).toBe('The current weather in Paris is sunny with a temperature of 25 degrees Celsius.');
  });

  it("passes the tool's own error message on for a city without data", async () => {
    const { answer } = await ask('And in Berlin?');
    expect(answer).toBe("Sorry, weather information for 'Berlin' is not available.");
  });
});
