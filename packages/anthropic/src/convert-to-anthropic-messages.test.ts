import { convertToAnthropicMessages } from './convert-to-anthropic-messages';

describe('convertToAnthropicMessages', () => {
  it('puts the system instruction in `system` and maps roles', () => {
    expect(
      convertToAnthropicMessages(
        [
          { role: 'user', parts: [{ text: 'Hi' }] },
          { role: 'model', parts: [{ text: 'Hello!' }] },
        ],
        'You are terse.',
      ),
    ).toEqual({
      system: 'You are terse.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      ],
    });
  });

  it('merges consecutive same-role messages and drops empty text', () => {
    const { messages, system } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'user', parts: [{ text: '' }, { text: 'b' }] },
      { role: 'model', parts: [{ text: '' }] },
      { role: 'user', parts: [{ text: 'c' }] },
    ]);
    expect(system).toBeUndefined();
    expect(messages).toEqual([{ role: 'user', content: ['a', 'b', 'c'].map((text) => ({ type: 'text', text })) }]);
  });

  it('answers every tool_use with one tool_result, results first, in call order', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 't1', name: 'a', args: {} } },
          { functionCall: { id: 't2', name: 'b', args: 'not json' } },
        ],
      },
      { role: 'user', parts: [{ text: 'also this' }, { functionResponse: { id: 't1', name: 'a', response: { ok: true } } }] },
    ]);
    expect(messages[1].content).toEqual([
      { type: 'tool_use', id: 't1', name: 'a', input: {} },
      // Unparseable raw arguments cannot go back as `input`; the call was already answered with an error.
      { type: 'tool_use', id: 't2', name: 'b', input: {} },
    ]);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: '{"ok":true}' },
        { type: 'tool_result', tool_use_id: 't2', content: expect.stringContaining('MISSING_RESULT'), is_error: true },
        { type: 'text', text: 'also this' },
      ],
    });
  });

  it('sends thinking back with its signature and drops unsigned thoughts', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { text: 'pondering', thought: true, thoughtSignature: 'sig==' },
          { text: 'unsigned', thought: true },
          { text: 'answer' },
        ],
      },
    ]);
    expect(messages[1].content).toEqual([
      { type: 'thinking', thinking: 'pondering', signature: 'sig==' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it("sends back only Anthropic's own signed thinking: another provider's signature is dropped with its thought", () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { text: 'gemini thinks', thought: true, thoughtSignature: 'c2ln', thoughtSignatureProvider: 'gemini' },
          { text: 'claude thinks', thought: true, thoughtSignature: 'EqQB', thoughtSignatureProvider: 'anthropic' },
          { text: 'answer', thoughtSignature: 'c2ln', thoughtSignatureProvider: 'gemini' },
        ],
      },
    ]);
    expect(messages[1].content).toEqual([
      { type: 'thinking', thinking: 'claude thinks', signature: 'EqQB' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it('maps inline images, PDFs and UTF-8 text (media types without case), and sends a note in place of other media and of text that is not UTF-8, so the history stays sendable', () => {
    const { messages } = convertToAnthropicMessages([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'IMAGE/PNG', data: 'iVBO' } },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
          { inlineData: { mimeType: 'Text/Plain', data: Buffer.from('café ☕', 'utf8').toString('base64'), displayName: 'notes.txt' } },
          { inlineData: { mimeType: 'text/plain', data: Buffer.from('café', 'latin1').toString('base64') } },
          { inlineData: { mimeType: 'text/plain', data: Buffer.from('hi', 'utf16le').toString('base64') } },
          { inlineData: { mimeType: 'text/plain', data: Buffer.from('\ufeffhi', 'utf16le').toString('base64') } },
          { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
        ],
      },
    ]);
    expect(messages[0].content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'café ☕' } },
      { type: 'text', text: '[A file (text/plain, 4 bytes) was sent here; it was left out, as its bytes are not UTF-8 text.]' },
      { type: 'text', text: '[A file (text/plain, 4 bytes) was sent here; it was left out, as its bytes are not UTF-8 text.]' },
      { type: 'text', text: '[A file (text/plain, 6 bytes) was sent here; it was left out, as its bytes are not UTF-8 text.]' },
      { type: 'text', text: '[A file (audio/wav, 3 bytes) was sent here; it was left out, as files of this type are not sent to Anthropic in a message.]' },
    ]);
  });

  it('sends a note in place of a model turn\'s file (an assistant turn holds no images), of an image over 5 MB of base64, and of empty or blank text', () => {
    const big = 'A'.repeat(5 * 1024 * 1024 + 4);
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: big } }, { inlineData: { mimeType: 'text/plain', data: Buffer.from('\ufeff', 'utf8').toString('base64') } }, { inlineData: { mimeType: 'text/plain', data: Buffer.from(' \n\t ', 'utf8').toString('base64') } }] },
      { role: 'model', parts: [{ text: 'Here it is.' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[A file (image/png, 3932163 bytes) was sent here; it was left out, as images over 5 MB (of base64) are not sent to Anthropic.]' },
          { type: 'text', text: '[A file (text/plain, 3 bytes) was sent here; it was left out, as it holds no text.]' },
          { type: 'text', text: '[A file (text/plain, 4 bytes) was sent here; it was left out, as it holds no text.]' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Here it is.' },
          { type: 'text', text: '[A file (image/png, 3 bytes) was sent here; it was left out, as an assistant turn holds no files.]' },
        ],
      },
    ]);
  });

  it("cuts a document's title to Anthropic's 500 characters (core keeps names to 255; a session stored before may hold longer)", () => {
    const file = { mimeType: 'application/pdf', data: 'JVBE' };
    const { messages } = convertToAnthropicMessages([
      { role: 'model', parts: [{ functionCall: { id: 't1', name: 'f', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'f', response: {}, parts: [{ inlineData: { ...file, displayName: `${'n'.repeat(499)}é🎉x` } }] } }] },
    ]);
    expect(messages[1].content[0]).toMatchObject({ content: [{ type: 'text' }, { type: 'document', title: `${'n'.repeat(499)}é` }] });
  });

  it("sends Anthropic's own blocks back unchanged and skips other providers' data", () => {
    const block = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } };
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'News?' }] },
      {
        role: 'model',
        parts: [
          { providerData: { provider: 'anthropic', data: block } },
          { providerData: { provider: 'gemini', data: { executableCode: { language: 'PYTHON', code: 'print(1)' } } } },
          { text: 'Nothing new.' },
        ],
      },
    ]);
    expect(messages[1]).toEqual({ role: 'assistant', content: [block, { type: 'text', text: 'Nothing new.' }] });
  });

  it("sends a call that carries another adapter's providerData (Google's extra_content from OpenAIModel) as a plain tool_use", () => {
    const extra = { google: { thought_signature: 'c2ln' } };
    const { messages } = convertToAnthropicMessages([
      { role: 'user', parts: [{ text: 'Paris?' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } }, providerData: { provider: 'openai', data: { extra_content: extra, server: 'https://x/v1' } } }] },
    ]);
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }] });
  });
});
