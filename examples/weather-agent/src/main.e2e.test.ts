import { main } from './main';

describe('weather-agent demo (offline)', () => {
  it('prints the conversation: user text, tool calls with arguments, results, state changes and answers', async () => {
    const lines: string[] = [];
    await main({ env: {}, print: (line) => lines.push(line) });
    const out = lines.join('\n');

    expect(lines[0]).toContain('offline');
    expect(lines[0]).toContain('OPENAI_API_KEY');
    expect(out).toContain(`User: What's the weather like in London?
  → getWeatherReport({"city":"London"})
  ← getWeatherReport: {"status":"success","report":"The current weather in London is cloudy with a chance of rain with a temperature of 18 degrees Celsius."}
  ✎ state user:lastCity = "London"
Agent: The current weather in London is cloudy with a chance of rain with a temperature of 18 degrees Celsius.`);
    expect(out).toContain(`  → analyzeSentiment({"text":"That sounds bad, I really don't like rainy weather."})
  ← analyzeSentiment: {"sentiment":"negative","confidence":0.7}
  ✎ state lastSentiment = "negative"`);
    // Two parallel calls, answered in call order; the unknown city is a tool-level error status.
    expect(out).toContain(`  → getWeatherReport({"city":"Paris"})
  → getWeatherReport({"city":"Tokyo"})
  ← getWeatherReport: {"status":"success","report":"The current weather in Paris is sunny with a temperature of 25 degrees Celsius."}
  ← getWeatherReport: {"status":"error","errorMessage":"Weather information for 'Tokyo' is not available."}`);
    expect(out).toContain(`Session state at the end: {"user:lastCity":"Paris","lastSentiment":"negative"}`);
  });
});
