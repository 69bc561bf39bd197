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

const resultRequest = async (api: 'chat' | 'responses', wire: WireCodec) =>
  (
    await requestAfterToolCall({
      createModel: (baseURL) => new OpenAIModel({ model: 'gpt-4.1-mini', ...(api === 'responses' ? { api } : {}), apiKey: 'test-key', baseURL: `${baseURL}/v1`, maxRetries: 0 }),
      wire,
      tools: [report],
      call: { id: 'call_r1', name: 'render_report', args: {} },
    })
  ).body;

describe('files from tools on the OpenAI wire', () => {
  it('Responses API: function_call_output.output is a list of the JSON text, an input_image and input_files', async () => {
    const body = await resultRequest('responses', openAIResponsesCodec);
    const output = body.input.find((item: { type?: string }) => item.type === 'function_call_output');
    expect(output).toEqual({
      type: 'function_call_output',
      call_id: 'call_r1',
      output: [
        { type: 'input_text', text: '{"pages":1}' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        { type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
        { type: 'input_file', filename: 'file-2.wav', file_data: `data:audio/wav;base64,${WAV}` },
      ],
    });
  });

  it('Chat Completions: the tool message holds the JSON; a user message right after it carries the files', async () => {
    const body = await resultRequest('chat', openAIChatCodec);
    expect(body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_r1', content: '{"pages":1}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The files returned by the call call_r1 of tool "render_report":' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
          { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
        ],
      },
    ]);
  });
});
