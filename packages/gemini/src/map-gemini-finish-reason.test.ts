import { mapGeminiFinishReason } from './map-gemini-finish-reason';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool-calls'],
    ['MAX_TOKENS', true, 'max-tokens'],
    ['SAFETY', false, 'content-filter'],
    ['RECITATION', false, 'content-filter'],
    ['PROHIBITED_CONTENT', false, 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['UNEXPECTED_TOOL_CALL', false, 'error'],
    ['OTHER', false, 'other'],
    ['FINISH_REASON_UNSPECIFIED', false, 'other'],
  ])('maps %s (function calls: %s) to %s', (raw, hasCalls, unified) => {
    expect(mapGeminiFinishReason(raw, hasCalls)).toEqual({ unified, raw });
  });

  it('maps a missing reason by whether calls were made', () => {
    expect(mapGeminiFinishReason(undefined, true)).toEqual({ unified: 'tool-calls' });
    expect(mapGeminiFinishReason(undefined, false)).toEqual({ unified: 'other' });
  });
});
