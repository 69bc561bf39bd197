import type { ChatCompletion } from 'openai/resources/chat/completions';
import { mapOpenAIChatCompletion } from './map-openai-chat-completion';

const completion = (choices: unknown[], usage: unknown = undefined) => ({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices, usage }) as ChatCompletion;
const strict = new Map([['f', { type: 'object', properties: { a: { type: 'string' } } }]]);

describe('mapOpenAIChatCompletion', () => {
  it('maps reasoning, text, refusal and calls, restoring strict nulls', () => {
    const response = mapOpenAIChatCompletion(
      completion([
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', reasoning: 'hmm', content: 'ok', refusal: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{"a":null}' } }] },
        },
      ]),
      { strictSchemas: strict, server: 'https://api.openai.com/v1' },
    );
    expect(response.content?.parts).toEqual([{ text: 'hmm', thought: true }, { text: 'ok' }, { functionCall: { id: 'x', name: 'f', args: {} } }]);
  });

  it('keeps a refusal as text', () => {
    const response = mapOpenAIChatCompletion(completion([{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }]), { strictSchemas: new Map(), server: 'https://api.openai.com/v1' });
    expect(response.content?.parts).toEqual([{ text: 'I cannot help with that.' }]);
  });

  it('refuses an answer that is not a completion as PROVIDER_RESPONSE_INVALID, saying what came instead', () => {
    const context = { strictSchemas: new Map(), server: 'https://api.openai.com/v1' };
    expect(() => mapOpenAIChatCompletion(completion([]), context)).toThrow(expect.objectContaining({ code: 'PROVIDER_RESPONSE_INVALID', message: expect.stringContaining('its choices are empty') }));
    expect(() => mapOpenAIChatCompletion({}, context)).toThrow(expect.objectContaining({ code: 'PROVIDER_RESPONSE_INVALID', message: expect.stringContaining('it has no choices') }));
    expect(() => mapOpenAIChatCompletion(completion([{ index: 0 }]), context)).toThrow(expect.objectContaining({ code: 'PROVIDER_RESPONSE_INVALID', message: expect.stringContaining('choices[0] has no message') }));
    expect(() => mapOpenAIChatCompletion('proxy login', context)).toThrow(expect.objectContaining({ code: 'PROVIDER_RESPONSE_INVALID', message: expect.stringContaining('the body is a JSON string') }));
    expect(() => mapOpenAIChatCompletion(null, context)).toThrow(expect.objectContaining({ code: 'PROVIDER_RESPONSE_INVALID', message: expect.stringContaining('JSON null') }));
  });
});
