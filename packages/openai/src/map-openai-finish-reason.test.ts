import { mapOpenAIFinishReason, mapOpenAIResponseStatus } from './map-openai-finish-reason';

describe('mapOpenAIFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'max-tokens'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['content_filter', 'content-filter'],
    ['something_new', 'other'],
  ])('%s → %s', (raw, unified) => {
    expect(mapOpenAIFinishReason(raw)).toEqual({ unified, raw });
  });

  it('handles a missing reason', () => {
    expect(mapOpenAIFinishReason(null)).toEqual({ unified: 'other' });
  });
});

describe('mapOpenAIResponseStatus', () => {
  it('maps completed by whether the model called tools', () => {
    expect(mapOpenAIResponseStatus('completed', null, false)).toEqual({ unified: 'stop', raw: 'completed' });
    expect(mapOpenAIResponseStatus('completed', null, true)).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });

  it('maps incomplete reasons and failures', () => {
    expect(mapOpenAIResponseStatus('incomplete', 'max_output_tokens', false)).toEqual({ unified: 'max-tokens', raw: 'incomplete:max_output_tokens' });
    expect(mapOpenAIResponseStatus('incomplete', 'content_filter', false)).toEqual({ unified: 'content-filter', raw: 'incomplete:content_filter' });
    expect(mapOpenAIResponseStatus('failed', null, false)).toEqual({ unified: 'error', raw: 'failed' });
    expect(mapOpenAIResponseStatus('queued', null, false)).toEqual({ unified: 'other', raw: 'queued' });
  });
});
