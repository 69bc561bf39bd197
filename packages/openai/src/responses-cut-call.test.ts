import { collect } from '@toolsmith/core/testing';
import { mapOpenAIResponse } from './map-openai-response';
import { readOpenAIResponsesStream } from './openai-responses-stream';

// A Responses answer cut by max_output_tokens in the middle of a call: status incomplete, the call's item
// in_progress with its arguments cut.
const reasoning = { id: 'rs_1', type: 'reasoning', summary: [] };
const cut = { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'get_weather', arguments: '{"ci' };
const incomplete = { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: undefined, error: null } as const;

describe('Responses API: a call cut by max_output_tokens', () => {
  it('is not a function call and is not kept; the finish reason is max-tokens', () => {
    const response = mapOpenAIResponse({ ...incomplete, output: [reasoning, cut] } as never, new Map());
    expect(response.content!.parts.some((part) => part.functionCall || part.providerData?.data.type === 'function_call')).toBe(false);
    expect(response.finishReason).toEqual({ unified: 'max-tokens', raw: 'incomplete:max_output_tokens' });
  });

  it('streamed: the same (its argument partials were seen, the final response holds no call)', async () => {
    async function* events() {
      yield { type: 'response.output_item.added', output_index: 0, item: reasoning };
      yield { type: 'response.output_item.added', output_index: 1, item: { ...cut, arguments: '' } };
      yield { type: 'response.function_call_arguments.delta', output_index: 1, delta: '{"ci' };
      yield { type: 'response.incomplete', response: { ...incomplete, output: [] } };
    }
    const final = (await collect(readOpenAIResponsesStream(events() as never, new Map()))).at(-1)!;
    expect(final.content!.parts.some((part) => part.functionCall)).toBe(false);
    expect(final.finishReason?.unified).toBe('max-tokens');
  });

  it('a completed call in an incomplete response (cut after it) is kept and run', () => {
    const response = mapOpenAIResponse({ ...incomplete, output: [{ ...cut, status: 'completed', arguments: '{"city":"Paris"}' }] } as never, new Map());
    expect(response.content!.parts[0].functionCall).toEqual({ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } });
  });
});
