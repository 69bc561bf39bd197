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

describe('convertToGeminiContents: files only where Gemini takes them, a note in place of any other', () => {
  const ZIP = Buffer.from('PK\x03\x04', 'latin1').toString('base64');
  const userFile = (mimeType: string, displayName?: string) => convertToGeminiContents([{ role: 'user', parts: [{ inlineData: { mimeType, data: ZIP, ...(displayName ? { displayName } : {}) } }] }])[0].parts;
  const userNote = (mimeType: string, name = '') => ({ text: `[A file${name} (${mimeType}, 4 bytes) was attached here; it was left out, as files of this type are not sent to Gemini in a message.]` });

  it.each([
    ['image/png'], ['image/jpeg'], ['image/webp'], ['image/heic'], ['image/heif'],
    ['audio/wav'], ['audio/mp3'], ['audio/mpeg'], ['audio/aiff'], ['audio/aac'], ['audio/ogg'], ['audio/flac'],
    ['video/mp4'], ['video/mpeg'], ['video/mov'], ['video/avi'], ['video/x-flv'], ['video/mpg'], ['video/webm'], ['video/wmv'], ['video/3gpp'],
    ['application/pdf'], ['text/plain'], ['text/html'], ['text/css'], ['text/csv'], ['text/xml'], ['text/rtf'], ['text/md'], ['text/markdown'],
    ['text/javascript'], ['text/x-python'],
  ])("a user's %s goes as inlineData", (mimeType) => {
    expect(userFile(mimeType)).toEqual([{ inlineData: { mimeType, data: ZIP } }]);
  });

  it.each([
    ['image/jpg', 'image/jpeg'], ['audio/x-wav', 'audio/wav'], ['audio/wave', 'audio/wav'], ['video/quicktime', 'video/mov'],
    ['application/x-javascript', 'text/javascript'], ['application/javascript', 'text/javascript'], ['application/x-python', 'text/x-python'],
    ['application/json', 'text/plain'], ['text/x-typescript', 'text/plain'], ['Text/X-Go', 'text/plain'], ['application/xml', 'text/xml'],
    ['application/yaml', 'text/plain'], ['application/ld+json', 'text/plain'], ['image/svg+xml', 'text/plain'],
  ])("a user's %s goes as inlineData under the name Google documents, %s (any other text as text/plain)", (mimeType, sent) => {
    expect(userFile(mimeType)).toEqual([{ inlineData: { mimeType: sent, data: ZIP } }]);
  });

  it('a text file whose bytes are not UTF-8 text (Latin-1, gzip-compressed SVG, UTF-16) goes as a note saying so', () => {
    const note = (mimeType: string, bytes: number) => ({ text: `[A file (${mimeType}, ${bytes} bytes) was attached here; it was left out, as its bytes are not UTF-8 text.]` });
    const file = (mimeType: string, bytes: Buffer) => convertToGeminiContents([{ role: 'user', parts: [{ inlineData: { mimeType, data: bytes.toString('base64') } }] }])[0].parts;
    expect(file('text/plain', Buffer.from('Größe', 'latin1'))).toEqual([note('text/plain', 5)]);
    expect(file('image/svg+xml', Buffer.from('1f8b0800000000000003', 'hex'))).toEqual([note('image/svg+xml', 10)]);
    expect(file('text/csv', Buffer.from('a,b', 'utf16le'))).toEqual([note('text/csv', 6)]);
    expect(file('text/plain', Buffer.from('Größe', 'utf8'))).toEqual([{ inlineData: { mimeType: 'text/plain', data: Buffer.from('Größe', 'utf8').toString('base64') } }]);
  });

  it("compares a user's media type without case and sends it in lower case", () => {
    expect(userFile('Image/PNG')).toEqual([{ inlineData: { mimeType: 'image/png', data: ZIP } }]);
    expect(userFile('Application/ZIP')).toEqual([userNote('Application/ZIP')]);
  });

  it.each([
    ['application/zip', 'a ZIP'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a .docx'],
    ['image/gif', 'a GIF (Gemini 2.x refuses it; Google lists no GIF)'],
    ['image/tiff', 'an image type Google does not list'],
  ])("a user's %s (%s) goes as a note naming it", (mimeType) => {
    expect(userFile(mimeType, 'report')).toEqual([userNote(mimeType, ' "report"')]);
  });

  it("a model turn's file goes as Gemini takes a user's: its own output as it came, a note saying the model gave it in place of any other", () => {
    const png = { inlineData: { mimeType: 'image/png', data: ZIP } };
    const wav = { inlineData: { mimeType: 'audio/wav', data: ZIP } };
    const model = (mimeType: string, data = ZIP) => ({ inlineData: { mimeType, data } });
    const binaryText = Buffer.from([0x50, 0x4b, 0x03, 0x00]).toString('base64');
    expect(
      convertToGeminiContents([
        { role: 'model', parts: [png, wav, model('image/gif'), model('application/octet-stream'), model('application/zip'), model('audio/l16'), model('text/plain', binaryText)] },
        { role: 'user', parts: [model('image/gif')] },
      ]),
    ).toEqual([
      {
        role: 'model',
        parts: [
          png,
          wav,
          { text: '[A file (image/gif, 4 bytes) the model gave was here; it was left out, as files of this type are not sent to Gemini in a message.]' },
          { text: '[A file (application/octet-stream, 4 bytes) the model gave was here; it was left out, as files of this type are not sent to Gemini in a message.]' },
          { text: '[A file (application/zip, 4 bytes) the model gave was here; it was left out, as files of this type are not sent to Gemini in a message.]' },
          { text: '[A file (audio/l16, 4 bytes) the model gave was here; it was left out, as files of this type are not sent to Gemini in a message.]' },
          { text: '[A file (text/plain, 4 bytes) the model gave was here; it was left out, as its bytes are not UTF-8 text.]' },
        ],
      },
      { role: 'user', parts: [userNote('image/gif')] },
    ]);
  });

  const call = { id: 'call-1', name: 'render_report', args: {} };
  const toolFiles = (...files: Array<[string, string?]>) =>
    [
      { role: 'model' as const, parts: [{ functionCall: call }] },
      {
        role: 'user' as const,
        parts: [{ functionResponse: { id: 'call-1', name: 'render_report', response: { pages: 1 }, parts: files.map(([mimeType, displayName]) => ({ inlineData: { mimeType, data: ZIP, ...(displayName ? { displayName } : {}) } })) } }],
      },
    ];
  const intro = { text: 'The files returned by the call call-1 of tool "render_report":' };
  const toolNote = (name: string, mimeType: string) => ({ text: `[The tool returned the file "${name}" (${mimeType}, 4 bytes), which Gemini cannot take as input; it was left out.]` });

  it('inside the function response (default): images PNG, JPEG, WebP, PDFs and plain text; after the responses, a file Gemini takes in a message (WAV) as inlineData and a note for any other', () => {
    const [, result] = convertToGeminiContents(toolFiles(['image/png', 'chart.png'], ['Application/PDF'], ['application/zip', 'all.zip'], ['audio/wav'], ['image/webp'], ['text/plain'], ['image/jpeg'], ['image/gif']));
    expect(result).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call-1',
            name: 'render_report',
            response: { pages: 1 },
            parts: [
              { inlineData: { mimeType: 'image/png', data: ZIP, displayName: 'chart.png' } },
              { inlineData: { mimeType: 'application/pdf', data: ZIP } },
              { inlineData: { mimeType: 'image/webp', data: ZIP } },
              { inlineData: { mimeType: 'text/plain', data: ZIP } },
              { inlineData: { mimeType: 'image/jpeg', data: ZIP } },
            ],
          },
        },
        intro,
        toolNote('all.zip', 'application/zip'),
        // Gemini takes WAV in a message but not in a function response: the note says so.
        { inlineData: { mimeType: 'audio/wav', data: 'UEsDBA==' } },
        toolNote('file-7.gif', 'image/gif'),
      ],
    });
  });

  it('inside the function response, a response whose files all go there has no note, and one whose files all are noted has no parts', () => {
    expect(convertToGeminiContents(toolFiles(['image/png']))[1].parts).toEqual([{ functionResponse: { id: 'call-1', name: 'render_report', response: { pages: 1 }, parts: [{ inlineData: { mimeType: 'image/png', data: ZIP } }] } }]);
    expect(convertToGeminiContents(toolFiles(['application/zip', 'all.zip']))[1].parts).toEqual([{ functionResponse: { id: 'call-1', name: 'render_report', response: { pages: 1 } } }, intro, toolNote('all.zip', 'application/zip')]);
  });

  it('after the function responses (toolFilesInFunctionResponse: false): the types of a message, in lower case; a note for any other', () => {
    const [, result] = convertToGeminiContents(toolFiles(['image/png', 'chart.png'], ['Audio/WAV'], ['video/mp4'], ['application/zip', 'all.zip'], ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'memo.docx'], ['image/gif']), {
      toolFilesInFunctionResponse: false,
    });
    expect(result).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'call-1', name: 'render_report', response: { pages: 1 } } },
        intro,
        { inlineData: { mimeType: 'image/png', data: ZIP } },
        { inlineData: { mimeType: 'audio/wav', data: ZIP } },
        { inlineData: { mimeType: 'video/mp4', data: ZIP } },
        toolNote('all.zip', 'application/zip'),
        toolNote('memo.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
        toolNote('file-5.gif', 'image/gif'),
      ],
    });
  });
});
