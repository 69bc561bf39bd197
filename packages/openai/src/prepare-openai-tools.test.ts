import type { FunctionDeclaration } from '@toolsmith/core';
import { prepareOpenAITools } from './prepare-openai-tools';
import { providerTool } from './provider-tool';
import { StrictSchemaError } from './strict-schema-error';

const weather: FunctionDeclaration = {
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city'] },
};
const ping: FunctionDeclaration = { name: 'ping', description: 'Ping.', parameters: { type: 'object' } };
const strictWeather = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: ['string', 'null'], enum: ['c', 'f', null] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const emptyStrict = { type: 'object', properties: {}, required: [], additionalProperties: false };

describe('prepareOpenAITools', () => {
  it('builds strict Chat Completions function tools and remembers their canonical schemas', () => {
    const prepared = prepareOpenAITools({ request: { tools: [weather, ping] }, api: 'chat', strict: true });
    expect(prepared.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather for a city.', parameters: strictWeather, strict: true } },
      { type: 'function', function: { name: 'ping', description: 'Ping.', parameters: emptyStrict, strict: true } },
    ]);
    expect(prepared.strictSchemas.get('get_weather')).toBe(weather.parameters);
    expect(prepared.toolChoice).toBeUndefined();
    expect(prepared.parallelToolCalls).toBeUndefined();
  });

  it('builds Responses function tools, always with an explicit strict flag', () => {
    const prepared = prepareOpenAITools({ request: { tools: [weather, ping] }, api: 'responses', strict: false });
    expect(prepared.tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather for a city.', parameters: weather.parameters, strict: false },
      { type: 'function', name: 'ping', description: 'Ping.', parameters: { type: 'object', properties: {} }, strict: false },
    ]);
    expect(prepared.strictSchemas.size).toBe(0);
  });

  it.each([
    ['auto', 'auto', 'auto'],
    ['none', 'none', 'none'],
    ['required', 'required', 'required'],
    [{ type: 'tool', name: 'ping' }, { type: 'function', function: { name: 'ping' } }, { type: 'function', name: 'ping' }],
  ] as const)('maps tool choice %j', (choice, chat, responses) => {
    expect(prepareOpenAITools({ request: { tools: [ping], toolChoice: choice }, api: 'chat', strict: true }).toolChoice).toEqual(chat);
    expect(prepareOpenAITools({ request: { tools: [ping], toolChoice: choice }, api: 'responses', strict: true }).toolChoice).toEqual(responses);
  });

  it('sends parallel_tool_calls from the request, else the model default, and nothing without tools', () => {
    expect(prepareOpenAITools({ request: { tools: [ping] }, api: 'chat', strict: true, parallelToolCalls: false }).parallelToolCalls).toBe(false);
    expect(
      prepareOpenAITools({ request: { tools: [ping], config: { parallelToolCalls: true } }, api: 'chat', strict: true, parallelToolCalls: false })
        .parallelToolCalls,
    ).toBe(true);
    expect(prepareOpenAITools({ request: { tools: [], toolChoice: 'required' }, api: 'chat', strict: true, parallelToolCalls: false })).toEqual({
      strictSchemas: new Map(),
    });
  });

  it('refuses a strict-incompatible schema naming the tool and keyword, unless strict is off', () => {
    const map: FunctionDeclaration = {
      name: 'set_labels',
      description: '',
      parameters: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } },
    };
    expect(() => prepareOpenAITools({ request: { tools: [map] }, api: 'chat', strict: true })).toThrow(StrictSchemaError);
    expect(() => prepareOpenAITools({ request: { tools: [map] }, api: 'chat', strict: true })).toThrow(
      /Tool "set_labels".*keyword "additionalProperties"/,
    );
    expect(prepareOpenAITools({ request: { tools: [map] }, api: 'chat', strict: false }).tools).toHaveLength(1);
  });

  it('passes OpenAI hosted tools through on the Responses API only', () => {
    const search = providerTool({ type: 'web_search' });
    expect(prepareOpenAITools({ request: { tools: [], providerTools: [search] }, api: 'responses', strict: true }).tools).toEqual([
      { type: 'web_search' },
    ]);
    expect(() => prepareOpenAITools({ request: { tools: [], providerTools: [search] }, api: 'chat', strict: true })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_TOOL_UNSUPPORTED' }),
    );
  });

  it("refuses another provider's tool", () => {
    const googleSearch = { kind: 'provider-tool', provider: 'gemini', name: 'google_search', config: { googleSearch: {} } } as const;
    expect(() => prepareOpenAITools({ request: { tools: [], providerTools: [googleSearch] }, api: 'responses', strict: true })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_TOOL_MISMATCH', message: expect.stringContaining('"gemini"') }),
    );
  });
});
