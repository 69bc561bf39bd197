import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolFile } from '@toolsmith/core';
import { SAMPLE_FILES, fileReturningTool } from '@toolsmith/core/testing';
import { type McpServerHandle, serveMcp } from './serve-mcp';

const { png, wav, pdf } = SAMPLE_FILES;
const chart = fileReturningTool(() => [
  toolFile({ mimeType: 'image/png', data: Buffer.from(png, 'base64'), name: 'chart.png' }),
  toolFile({ mimeType: 'audio/wav', data: wav }),
  toolFile({ mimeType: 'application/pdf', data: pdf, name: 'report.pdf' }),
  toolFile({ mimeType: 'text/csv', data: Buffer.from('q,sales\n3,12', 'utf8') }),
]);

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

  it('answers with the JSON as text and structured content, then image, audio and embedded resource blocks (named file-<n> without a name)', async () => {
    const result = (await client.callTool({ name: 'render_report', arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ pages: 1 });
    expect(result.content).toEqual([
      { type: 'text', text: '{"pages":1}' },
      { type: 'image', mimeType: 'image/png', data: png },
      { type: 'audio', mimeType: 'audio/wav', data: wav },
      { type: 'resource', resource: { uri: expect.stringMatching(/^toolsmith:\/\/tool-files\/.+\/report\.pdf$/), mimeType: 'application/pdf', blob: pdf } },
      { type: 'resource', resource: { uri: expect.stringMatching(/^toolsmith:\/\/tool-files\/.+\/file-3$/), mimeType: 'text/csv', blob: Buffer.from('q,sales\n3,12').toString('base64') } },
    ]);
  });
});
