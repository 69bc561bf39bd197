import { toolFile } from '@toolsmith/core';
import { SAMPLE_FILES, fileReturningTool, requestAfterToolCall } from '@toolsmith/core/testing';
import { AnthropicModel } from './anthropic-model';
import { anthropicWireCodec } from './__fixtures__/anthropic-wire-codec';

const { png: PNG, pdf: PDF } = SAMPLE_FILES;
const report = fileReturningTool(() => [
  toolFile({ mimeType: 'image/png', data: Buffer.from(PNG, 'base64'), name: 'chart.png' }),
  toolFile({ mimeType: 'application/pdf', data: PDF, name: 'report.pdf' }),
  toolFile({ mimeType: 'text/plain', data: Buffer.from('Q3: +12%', 'utf8') }),
  toolFile({ mimeType: 'audio/wav', data: Buffer.from('RIFF', 'latin1') }),
  toolFile({ mimeType: 'text/plain', data: Buffer.from('Größe', 'latin1'), name: 'latin1.txt' }),
  toolFile({ mimeType: 'IMAGE/PNG', data: Buffer.from(PNG, 'base64') }),
  toolFile({ mimeType: 'text/plain', data: Buffer.from('ok', 'utf8'), name: `${'n'.repeat(254)}é` }),
]);

describe('files from tools on the Anthropic wire', () => {
  it('the tool_result holds the JSON text, image and document blocks (media types without case), and a note for a type Anthropic cannot take and for text that is not UTF-8', async () => {
    const request = await requestAfterToolCall({
      createModel: (baseURL) => new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key', baseURL, maxRetries: 0 }),
      wire: anthropicWireCodec,
      tools: [report],
      call: { id: 'toolu_r1', name: 'render_report', args: {} },
    });
    const results = request.body.messages.at(-1).content;
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_r1',
        content: [
          { type: 'text', text: '{"pages":1}' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Q3: +12%' } },
          { type: 'text', text: '[The tool returned the file "file-3.wav" (audio/wav, 4 bytes), which Anthropic cannot take as input; it was left out.]' },
          { type: 'text', text: '[The tool returned the file "latin1.txt" (text/plain, 5 bytes); it was left out, as its bytes are not UTF-8 text.]' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'ok' }, title: `${'n'.repeat(254)}é` },
        ],
      },
    ]);
  });
});
