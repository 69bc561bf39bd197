import type { LlmRequest } from '@toolsmith/core';

/** The one tool both OpenAI wire tests send. */
export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city'],
  },
};

/** {@link weatherTool}'s parameters as strict mode sends them: every property required, optional ones nullable. */
export const strictWeatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};

/** A request asking `text` with a system instruction and {@link weatherTool}; `extra` overrides fields. */
export const ask = (text: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  systemInstruction: 'Answer briefly.',
  contents: [{ role: 'user', parts: [{ text }] }],
  tools: [weatherTool],
  ...extra,
});
