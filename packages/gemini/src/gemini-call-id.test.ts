import { geminiCallId, isGeneratedGeminiCallId } from './gemini-call-id';

describe('geminiCallId', () => {
  it('derives the same id from the same response position, different ones elsewhere', () => {
    expect(geminiCallId('resp', 0, 'a')).toBe(geminiCallId('resp', 0, 'a'));
    expect(geminiCallId('resp', 1, 'a')).not.toBe(geminiCallId('resp', 0, 'a'));
    expect(geminiCallId('other', 0, 'a')).not.toBe(geminiCallId('resp', 0, 'a'));
    expect(geminiCallId(undefined, 0, 'a')).not.toBe(geminiCallId(undefined, 0, 'a'));
  });

  it('recognizes generated ids only', () => {
    expect(isGeneratedGeminiCallId(geminiCallId('resp', 0, 'a'))).toBe(true);
    expect(isGeneratedGeminiCallId(geminiCallId(undefined, 0, 'a'))).toBe(true);
    expect(isGeneratedGeminiCallId('gem-call-7')).toBe(false);
  });
});
