import type { LlmRequest, LlmResponse } from '@toolsmith/core';
import { createWeatherOfflineModel } from './weather-offline-model';

const declaration = (name: string) => ({ name, description: name, parameters: { type: 'object' } });

async function answer(request: LlmRequest): Promise<LlmResponse> {
  const responses: LlmResponse[] = [];
  for await (const response of createWeatherOfflineModel().generate(request)) responses.push(response);
  return responses[responses.length - 1];
}

describe('createWeatherOfflineModel', () => {
  it('calls the weather tool under whatever prefix a toolset gave it, once per city', async () => {
    const response = await answer({
      contents: [{ role: 'user', parts: [{ text: 'Weather in paris and New York?' }] }],
      tools: [declaration('weather_getWeatherReport')],
    });
    expect(response.content?.parts.map((part) => part.functionCall && { name: part.functionCall.name, args: part.functionCall.args })).toEqual([
      { name: 'weather_getWeatherReport', args: { city: 'Paris' } },
      { name: 'weather_getWeatherReport', args: { city: 'New York' } },
    ]);
  });

  it('calls only tools the request declares', async () => {
    const feeling = { contents: [{ role: 'user' as const, parts: [{ text: 'I love sunny days' }] }] };
    const withSentiment = await answer({ ...feeling, tools: [declaration('analyzeSentiment')] });
    expect(withSentiment.content?.parts[0].functionCall).toMatchObject({ name: 'analyzeSentiment' });
    const without = await answer({ ...feeling, tools: [declaration('getWeatherReport')] });
    expect(without.content?.parts).toEqual([{ text: 'I can tell you the current weather in a city, or how you feel about it. Which city?' }]);
  });

  it('describes tool results, failures included', async () => {
    const response = await answer({
      contents: [
        {
          role: 'user',
          parts: [
            { functionResponse: { id: '1', name: 'weather_getWeatherReport', response: { status: 'error', errorMessage: "Weather information for 'Oslo' is not available." } } },
            { functionResponse: { id: '2', name: 'weather_getWeatherReport', response: { error: { code: 'MCP_TIMEOUT', message: 'too slow' } }, isError: true } },
          ],
        },
      ],
      tools: [],
    });
    expect(response.content?.parts).toEqual([
      { text: "Sorry, weather information for 'Oslo' is not available. The weather_getWeatherReport tool failed: too slow" },
    ]);
  });
});
