import { prepareGeminiTools } from './prepare-gemini-tools';
import { providerTool } from './provider-tool';

const search = { name: 'search', description: 'Search.', parameters: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };
const ping = { name: 'ping', description: 'Ping.', parameters: { type: 'object' } };

describe('prepareGeminiTools', () => {
  it('sends nothing without tools', () => {
    expect(prepareGeminiTools({ tools: [], toolChoice: 'required' })).toEqual({});
  });

  it('sends the canonical schema as parametersJsonSchema by default, an empty object schema without parameters', () => {
    expect(prepareGeminiTools({ tools: [search, ping] }).tools).toEqual([
      {
        functionDeclarations: [
          { name: 'search', description: 'Search.', parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
          { name: 'ping', description: 'Ping.', parametersJsonSchema: { type: 'object', properties: {} } },
        ],
      },
    ]);
  });

  it("sends OpenAPI `parameters` with the 'openapi' dialect (none for a tool without parameters), converted once per schema", () => {
    const first = prepareGeminiTools({ tools: [search, ping] }, 'openapi').tools![0].functionDeclarations!;
    expect(first).toEqual([
      { name: 'search', description: 'Search.', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } }, required: ['q'], propertyOrdering: ['q'] } },
      { name: 'ping', description: 'Ping.' },
    ]);
    const second = prepareGeminiTools({ tools: [search] }, 'openapi').tools![0].functionDeclarations!;
    expect(second[0].parameters).toBe(first[0].parameters);
  });

  it.each([
    [undefined, { mode: 'AUTO' }],
    ['auto', { mode: 'AUTO' }],
    ['required', { mode: 'ANY' }],
    ['none', { mode: 'NONE' }],
    [{ type: 'tool', name: 'search' }, { mode: 'ANY', allowedFunctionNames: ['search'] }],
  ] as const)('maps tool choice %j to functionCallingConfig %j', (toolChoice, expected) => {
    expect(prepareGeminiTools({ tools: [search], toolChoice }).toolConfig).toEqual({ functionCallingConfig: expected });
  });

  it('adds built-in tools after the declarations and refuses other providers’ tools', () => {
    expect(prepareGeminiTools({ tools: [ping], providerTools: [providerTool({ urlContext: {} })] }).tools).toEqual([
      { functionDeclarations: [{ name: 'ping', description: 'Ping.', parametersJsonSchema: { type: 'object', properties: {} } }] },
      { urlContext: {} },
    ]);
    const foreign = { kind: 'provider-tool' as const, provider: 'openai', name: 'web_search', config: {} };
    expect(() => prepareGeminiTools({ tools: [], providerTools: [foreign] })).toThrow(/"web_search" belongs to provider "openai"/);
  });
});
