import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CreateMessageRequestSchema, type LoggingMessageNotification, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ToolContext, functionTool } from '@toolsmith/core';
import { testToolContext } from '@toolsmith/core/testing';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { requestMcpSampling } from './request-mcp-sampling';
import { sendMcpLog } from './send-mcp-log';

// Served tools log to the client (MCP log notifications, filtered by the level the client set) and ask
// the client's model (MCP sampling), through the SDK's own Client over Streamable HTTP.

const importRows = functionTool({
  name: 'import_rows',
  description: 'Imports rows, logging as it goes.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: async (_args, context: ToolContext) => ({
    sent: [
      await sendMcpLog(context, { level: 'debug', data: 'reading the file' }),
      await sendMcpLog(context, { level: 'warning', data: { skipped: 2 } }),
      await sendMcpLog(context, { level: 'error', data: 'row 7 is broken', logger: 'importer' }),
    ],
  }),
});

const summarize = functionTool({
  name: 'summarize',
  description: "Summarizes a text with the client's model.",
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: async (args: { text: string }, context: ToolContext) => {
    const answer = await requestMcpSampling(context, { messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${args.text}` } }], maxTokens: 50 });
    return { summary: answer.content.type === 'text' ? answer.content.text : null, model: answer.model };
  },
});

const errorCodeOf = (result: CallToolResult) => (result.structuredContent?.error as { code?: string } | undefined)?.code;

describe('serveMcp: logging and sampling from served tools', () => {
  let server: McpServerHandle;
  const clients: Client[] = [];
  beforeEach(async () => {
    server = await serveMcp({ tools: [importRows, summarize], transport: { http: { port: 0 } } });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await server.close();
  });

  async function connect(sampling?: (text: string) => string) {
    const client = new Client({ name: 'log-test', version: '1.0.0' }, sampling ? { capabilities: { sampling: {} } } : {});
    if (sampling) {
      client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        const [content] = [request.params.messages[0].content].flat();
        return { role: 'assistant', content: { type: 'text', text: sampling(content.type === 'text' ? content.text : '') }, model: 'client-model', stopReason: 'endTurn' };
      });
    }
    await client.connect(new StreamableHTTPClientTransport(server.url!));
    clients.push(client);
    return client;
  }

  it('sends every log message before the result when the client set no level, named after the tool unless a logger is given', async () => {
    const client = await connect();
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    const result = (await client.callTool({ name: 'import_rows', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toEqual({ sent: [true, true, true] });
    expect(logs).toEqual([
      { level: 'debug', logger: 'import_rows', data: 'reading the file' },
      { level: 'warning', logger: 'import_rows', data: { skipped: 2 } },
      { level: 'error', logger: 'importer', data: 'row 7 is broken' },
    ]);
  });

  it('drops messages below the level the client set, and tells the tool so', async () => {
    const client = await connect();
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    await client.setLoggingLevel('warning');
    const result = (await client.callTool({ name: 'import_rows', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toEqual({ sent: [false, true, true] });
    expect(logs.map((log) => log.level)).toEqual(['warning', 'error']);
  });

  it("asks the client's model and gets its answer", async () => {
    const client = await connect((text) => `short: ${text.length} characters`);
    const result = (await client.callTool({ name: 'summarize', arguments: { text: 'a long story' } })) as CallToolResult;
    expect(result.structuredContent).toEqual({ summary: 'short: 23 characters', model: 'client-model' });
  });

  it('fails the call with MCP_SAMPLING_UNSUPPORTED when the client declares no sampling', async () => {
    const client = await connect();
    const result = (await client.callTool({ name: 'summarize', arguments: { text: 'x' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(errorCodeOf(result)).toBe('MCP_SAMPLING_UNSUPPORTED');
  });

  it('fails the call with MCP_SAMPLING_FAILED when the client refuses', async () => {
    const client = await connect(() => {
      throw new Error('the user declined');
    });
    const result = (await client.callTool({ name: 'summarize', arguments: { text: 'x' } })) as CallToolResult;
    expect(errorCodeOf(result)).toBe('MCP_SAMPLING_FAILED');
    expect((result.content[0] as { text: string }).text).toContain('the user declined');
  });

  it('outside MCP: a log is not sent and sampling fails with MCP_SAMPLING_UNSUPPORTED', async () => {
    const context = testToolContext();
    await expect(sendMcpLog(context, { level: 'error', data: 'x' })).resolves.toBe(false);
    await expect(requestMcpSampling(context, { messages: [], maxTokens: 1 })).rejects.toMatchObject({ code: 'MCP_SAMPLING_UNSUPPORTED' });
  });
});
