import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LlmAgent, Runner, functionTool, toolFile } from '@toolsmith/core';
import { SAMPLE_FILES, ScriptedModel, fileReturningTool } from '@toolsmith/core/testing';
import { McpToolset } from './mcp-toolset';
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

describe('serveMcp: a file whose bytes are not its media type', () => {
  let server: McpServerHandle;
  const client = new Client({ name: 'files-test', version: '1.0.0' });
  // A JPEG photo returned as image/png: an MCP client's provider would refuse it on every turn.
  const photo = functionTool({
    name: 'photo',
    description: 'Returns the photo.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => toolFile({ mimeType: 'image/png', data: Buffer.from('ffd8ffe000104a464946', 'hex') }),
  });

  beforeAll(async () => {
    server = await serveMcp({ tools: [photo], transport: { http: { port: 0 } } });
    await client.connect(new StreamableHTTPClientTransport(server.url!));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('answers with an INVALID_TOOL_RESULT error result, with no file', async () => {
    const result = (await client.callTool({ name: 'photo', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('whose bytes are a JPEG image (image/jpeg)') }]);
    expect(result.structuredContent).toMatchObject({ error: { code: 'INVALID_TOOL_RESULT' } });
  });
});

describe('McpToolset: files a served tool returns come back as the files of the result (serveMcp over Streamable HTTP)', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp({ tools: [chart], transport: { http: { port: 0 } } });
  });
  afterAll(() => server.close());

  it('an agent using the remote tool gets a function response with the JSON and the files as parts, as a local tool returning them would give', async () => {
    const toolset = new McpToolset({ transport: { url: server.url! } });
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render_report', args: {} }] }, 'Done.']);
    const runner = new Runner({ appName: 'files', agent: new LlmAgent({ name: 'assistant', model, tools: [toolset] }) });
    try {
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Report?' }] } })) void event;
    } finally {
      await runner.close();
      await toolset.close();
    }

    const sent = model.requests[1].contents.flatMap((content) => content.parts).find((part) => part.functionResponse)!.functionResponse!;
    expect(sent.response).toEqual({ pages: 1 });
    expect(sent.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: png } },
      { inlineData: { mimeType: 'audio/wav', data: wav } },
      { inlineData: { mimeType: 'application/pdf', data: pdf, displayName: 'report.pdf' } },
      { inlineData: { mimeType: 'text/csv', data: Buffer.from('q,sales\n3,12').toString('base64'), displayName: 'file-3' } },
    ]);
  });
});
