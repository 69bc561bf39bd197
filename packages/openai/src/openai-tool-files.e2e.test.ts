import { toolFile } from '@toolsmith/core';
import { SAMPLE_FILES, type WireCodec, fileReturningTool, requestAfterToolCall } from '@toolsmith/core/testing';
import { OpenAIModel } from './openai-model';
import { openAIChatCodec, openAIResponsesCodec } from './__fixtures__/openai-wire-codecs';

const { png: PNG, pdf: PDF, wav: WAV } = SAMPLE_FILES;
const report = fileReturningTool(() => [
  toolFile({ mimeType: 'image/png', data: Buffer.from(PNG, 'base64'), name: 'chart.png' }),
  toolFile({ mimeType: 'application/pdf', data: PDF, name: 'report.pdf' }),
  toolFile({ mimeType: 'audio/wav', data: WAV }),
]);

const ZIP = Buffer.from('PK\x03\x04', 'latin1').toString('base64');
const CSV = Buffer.from('city,temp\nParis,21\n').toString('base64');
const others = fileReturningTool(() => [
  toolFile({ mimeType: 'image/heic', data: PNG, name: 'photo.heic' }),
  toolFile({ mimeType: 'application/zip', data: ZIP, name: 'all.zip' }),
  toolFile({ mimeType: 'text/csv', data: CSV, name: 'temps.csv' }),
  toolFile({ mimeType: 'IMAGE/PNG', data: PNG, name: 'upper.png' }),
]);

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const documents = fileReturningTool(() => [
  toolFile({ mimeType: 'text/plain', data: CSV }),
  toolFile({ mimeType: 'application/msword', data: CSV }),
  toolFile({ mimeType: DOCX, data: CSV, name: 'Letter' }),
  toolFile({ mimeType: 'text/plain', data: CSV, name: 'README' }),
  toolFile({ mimeType: 'application/pdf', data: PDF, name: '42' }),
  toolFile({ mimeType: 'text/x-python', data: CSV, name: 'notes.PY' }),
  toolFile({ mimeType: 'text/x-unknown', data: CSV }),
]);

const resultRequest = async (api: 'chat' | 'responses', wire: WireCodec, tool = report, model = 'gpt-4.1-mini', audioInput?: boolean) =>
  (
    await requestAfterToolCall({
      createModel: (baseURL) =>
        new OpenAIModel({ model, ...(api === 'responses' ? { api } : {}), ...(audioInput === undefined ? {} : { audioInput }), apiKey: 'test-key', baseURL: `${baseURL}/v1`, maxRetries: 0 }),
      wire,
      tools: [tool],
      call: { id: 'call_r1', name: 'render_report', args: {} },
    })
  ).body;

describe('files from tools on the OpenAI wire', () => {
  it('Responses API: function_call_output.output is a list of the JSON text, an input_image, the input_file, and a note for the audio (the Responses API takes none)', async () => {
    const body = await resultRequest('responses', openAIResponsesCodec);
    const output = body.input.find((item: { type?: string }) => item.type === 'function_call_output');
    expect(output).toEqual({
      type: 'function_call_output',
      call_id: 'call_r1',
      output: [
        { type: 'input_text', text: '{"pages":1}' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        { type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
        { type: 'input_text', text: '[The tool returned the file "file-2.wav" (audio/wav, 16 bytes), which OpenAI cannot take as input; it was left out.]' },
      ],
    });
  });

  it('Chat Completions: the tool message holds the JSON; a user message right after it carries the files (the audio as a note: gpt-4.1-mini takes none)', async () => {
    const body = await resultRequest('chat', openAIChatCodec);
    expect(body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_r1', content: '{"pages":1}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The files returned by the call call_r1 of tool "render_report":' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
          { type: 'text', text: '[The tool returned the file "file-2.wav" (audio/wav, 16 bytes); it was left out, as this model takes no audio.]' },
        ],
      },
    ]);
  });

  it('Chat Completions, a model that takes audio (its id says audio): WAV goes as input_audio', async () => {
    const body = await resultRequest('chat', openAIChatCodec, report, 'gpt-4o-audio-preview');
    expect(body.messages.at(-1).content.at(-1)).toEqual({ type: 'input_audio', input_audio: { data: WAV, format: 'wav' } });
  });

  const note = (name: string, type: string, bytes: number) => `[The tool returned the file "${name}" (${type}, ${bytes} bytes), which OpenAI cannot take as input; it was left out.]`;

  it('Chat Completions: an image type the API refuses (HEIC), and files that are not PDFs, go as notes; media types are compared without case', async () => {
    const body = await resultRequest('chat', openAIChatCodec, others);
    expect(body.messages.at(-1).content.slice(1)).toEqual([
      { type: 'text', text: note('photo.heic', 'image/heic', 16) },
      { type: 'text', text: note('all.zip', 'application/zip', 4) },
      { type: 'text', text: note('temps.csv', 'text/csv', 19) },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it('Responses API: each input_file is named with the extension the API reads its type by (OpenAI tells a file by its name)', async () => {
    const body = await resultRequest('responses', openAIResponsesCodec, documents);
    const output = body.input.find((item: { type?: string }) => item.type === 'function_call_output').output;
    expect(output.slice(1).map((item: { filename: string }) => item.filename)).toEqual(['file-0.txt', 'file-1.doc', 'Letter.docx', 'README.txt', '42.pdf', 'notes.PY', 'file-6.txt']);
  });

  it('Chat Completions: a PDF named without its extension gets it; other documents go as notes', async () => {
    const body = await resultRequest('chat', openAIChatCodec, documents);
    const parts = body.messages.at(-1).content.slice(1);
    expect(parts.map((part: { type: string }) => part.type)).toEqual(['text', 'text', 'text', 'text', 'file', 'text', 'text']);
    expect(parts[4].file.filename).toBe('42.pdf');
  });

  it("Chat Completions, an audio model (which refuses images): images and PDFs go as notes saying why, the audio as input_audio", async () => {
    const body = await resultRequest('chat', openAIChatCodec, report, 'gpt-4o-audio-preview');
    expect(body.messages.at(-1).content.slice(1)).toEqual([
      { type: 'text', text: '[The tool returned the file "chart.png" (image/png, 16 bytes); it was left out, as this model takes no images or documents.]' },
      { type: 'text', text: '[The tool returned the file "report.pdf" (application/pdf, 15 bytes); it was left out, as this model takes no images or documents.]' },
      { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
    ]);
  });

  it('an id naming an audio model sends images and documents when audioInput is given, and always on the Responses API', async () => {
    const chat = await resultRequest('chat', openAIChatCodec, report, 'audio-desk-ft', false);
    expect(chat.messages.at(-1).content.slice(1).map((part: { type: string }) => part.type)).toEqual(['image_url', 'file', 'text']);
    const both = await resultRequest('chat', openAIChatCodec, report, 'gpt-4o-audio-preview', true);
    expect(both.messages.at(-1).content.slice(1).map((part: { type: string }) => part.type)).toEqual(['image_url', 'file', 'input_audio']);
    const responses = await resultRequest('responses', openAIResponsesCodec, report, 'audio-desk-gpt-4.1');
    const output = responses.input.find((item: { type?: string }) => item.type === 'function_call_output').output;
    expect(output.slice(1).map((item: { type: string }) => item.type)).toEqual(['input_image', 'input_file', 'input_text']);
  });

  it('Responses API: HEIC and a ZIP go as notes, a CSV as an input_file; media types are compared without case', async () => {
    const body = await resultRequest('responses', openAIResponsesCodec, others);
    const output = body.input.find((item: { type?: string }) => item.type === 'function_call_output').output;
    expect(output.slice(1)).toEqual([
      { type: 'input_text', text: note('photo.heic', 'image/heic', 16) },
      { type: 'input_text', text: note('all.zip', 'application/zip', 4) },
      { type: 'input_file', filename: 'temps.csv', file_data: `data:text/csv;base64,${CSV}` },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
    ]);
  });
});
