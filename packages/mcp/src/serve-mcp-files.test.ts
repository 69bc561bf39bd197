import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { functionTool, toolFile, toolResult } from '@toolsmith/core';
import { type McpServerHandle, serveMcp } from './serve-mcp';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const WAV = Buffer.from('RIFF....WAVEfmt ', 'latin1');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');

const chart = functionTool({
  name: 'render_report',
  description: 'Renders a report as a chart, a spoken summary and a PDF.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: () =>
    toolResult({ pages: 1 }, [
      toolFile({ mimeType: 'image/png', data: PNG, name: 'chart.png' }),
      toolFile({ mimeType: 'audio/wav', data: WAV }),
      toolFile({ mimeType: 'application/pdf', data: PDF.toString('base64'), name: 'report.pdf' }),
    ]),
});
describe('serveMcp: files a tool returns (the SDK client over Streamable HTTP)', () => {
  let server: McpServerHandle;
  const client = new Client({ name: 'files-test', version: '1.0.0' });

  beforeAll(async () => {
    server = await serveMcp({ tools: [chart], transport: { http: { port: 0 } } });
    await client.connect(new StreamableHTTPClientTransport(server.url!));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('answers with the JSON as text and structured content, then an image, an audio and an embedded resource block', async () => {
    const result = (await client.callTool({ name: 'render_report', arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ pages: 1 });
    expect(result.content).toEqual([
      { type: 'text', text: '{"pages":1}' },
      { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') },
      { type: 'audio', mimeType: 'audio/wav', data: WAV.toString('base64') },
      { type: 'resource', resource: { uri: expect.stringMatching(/^toolsmith:\/\/tool-files\/.+\/report\.pdf$/), mimeType: 'application/pdf', blob: PDF.toString('base64') } },
    ]);
  });
});
