import { convertToGeminiContents } from './convert-to-gemini-contents';
import { geminiCallId } from './gemini-call-id';

describe('convertToGeminiContents', () => {
  it('keeps roles, text, thoughts and signatures (also on empty text parts) and inline data', () => {
    expect(
      convertToGeminiContents([
        { role: 'user', parts: [{ text: 'Describe' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] },
        { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'A cat.' }, { text: '', thoughtSignature: 'c2ln' }, { text: '' }] },
      ]),
    ).toEqual([
      { role: 'user', parts: [{ text: 'Describe' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] },
      { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'A cat.' }, { text: '', thoughtSignature: 'c2ln' }] },
    ]);
  });

  it("sends Gemini's signatures only: another provider's signed thought is dropped, and a call keeps no foreign signature", () => {
    const anthropic = { thoughtSignatureProvider: 'anthropic' };
    expect(
      convertToGeminiContents([
        { role: 'user', parts: [{ text: 'q' }] },
        {
          role: 'model',
          parts: [
            { text: 'claude thinks', thought: true, thoughtSignature: 'EqQB', ...anthropic },
            { text: 'gemini thinks', thought: true, thoughtSignature: 'c2ln', thoughtSignatureProvider: 'gemini' },
            { text: '', thoughtSignature: 'Zm9y', ...anthropic },
            { text: 'answer', thoughtSignature: 'Zm9y', ...anthropic },
            { functionCall: { id: 'toolu_1', name: 'f', args: {} }, thoughtSignature: 'Zm9y', ...anthropic },
            { text: 'an earlier release', thought: true, thoughtSignature: 'b2xk' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { text: 'gemini thinks', thought: true, thoughtSignature: 'c2ln' },
          { text: 'answer' },
          { functionCall: { id: 'toolu_1', name: 'f', args: {} } },
          { text: 'an earlier release', thought: true, thoughtSignature: 'b2xk' },
        ],
      },
      { role: 'user', parts: [{ functionResponse: expect.objectContaining({ id: 'toolu_1', name: 'f' }) }] },
    ]);
  });

  it('drops generated ids, keeps Gemini ids, answers every call once and wraps non-object responses', () => {
    const generated = geminiCallId('resp', 0, 'a');
    const contents = convertToGeminiContents([
      {
        role: 'model',
        parts: [
          { functionCall: { id: generated, name: 'a', args: '{"x":1}' }, thoughtSignature: 'c2ln' },
          { functionCall: { id: 'gem-2', name: 'b', args: 'broken' } },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { id: generated, name: 'a', response: [1, 2] as unknown as Record<string, unknown> } }] },
    ]);
    expect(contents).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 'c2ln' },
          { functionCall: { id: 'gem-2', name: 'b', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'a', response: { output: [1, 2] } } },
          { functionResponse: { id: 'gem-2', name: 'b', response: { error: expect.objectContaining({ code: 'MISSING_RESULT' }) } } },
        ],
      },
    ]);
  });

  it("sends Gemini's own parts back as they came and skips other providers' data", () => {
    const contents = convertToGeminiContents([
      {
        role: 'model',
        parts: [
          { providerData: { provider: 'gemini', data: { executableCode: { language: 'PYTHON', code: 'print(1)' } } }, thoughtSignature: 'c2ln' },
          { providerData: { provider: 'anthropic', data: { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} } } },
          { text: '1' },
        ],
      },
    ]);
    expect(contents).toEqual([{ role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' }, thoughtSignature: 'c2ln' }, { text: '1' }] }]);
  });

  it("sends a call that carries another adapter's providerData (Google's extra_content from OpenAIModel) as a plain functionCall", () => {
    const extra = { google: { thought_signature: 'c2ln' } };
    const contents = convertToGeminiContents([
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } }, providerData: { provider: 'openai', data: { extra_content: extra, server: 'https://x/v1' } } }] },
    ]);
    expect(contents[0]).toEqual({ role: 'model', parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } } }] });
  });
});
