import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_RESULT_CHARS, InMemoryArtifactService, InMemoryMemoryService, ToolsmithError, functionTool } from '@toolsmith/core';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { ForecastApi, ForecastTools } from './__fixtures__/forecast-tools';
import { createServedTestTools } from './__fixtures__/served-tools';
import { createServiceTools } from './__fixtures__/service-tools';
import { OutputSchemaTools } from './__fixtures__/output-schema-tools';
import { sourceProcessArgs } from './__fixtures__/source-process';


const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const errorCodeOf = (result: CallToolResult) => (result.structuredContent?.error as { code?: string } | undefined)?.code;

describe('serveMcp over stdio (a real child process, the SDK client)', () => {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: sourceProcessArgs('serve-stdio-fixture.ts'),
      stderr: 'ignore',
    });
    await client.connect(transport);
  });
  afterAll(() => client.close());

  it('lists the tools with their canonical schemas and declarations', async () => {
    const { tools } = await client.listTools();
    const tool = createServedTestTools();
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'count_visits', 'delete_everything', 'slow_export', 'wx_forecast']);
    expect(tools[0]).toMatchObject({ description: tool.weather.description, inputSchema: tool.weather.parameters });
    // The long-running note of the declaration travels with the description.
    expect(tools[3].description).toBe(tool.slowExport.declaration().description);
    expect(client.getServerVersion()).toMatchObject({ name: 'served-fixture' });
  });

  it('runs a tool and answers with structured content and the same JSON as text', async () => {
    const result = await call(client, 'get_weather', { city: 'Paris' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ city: 'Paris', report: 'Sunny in Paris', unit: 'celsius' });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });

  it('serves a decorated class with its dependencies injected and its reflected schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'wx_forecast')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: 'number', default: 3 } },
      required: ['city'],
    });
    const result = await call(client, 'wx_forecast', { city: 'Lyon' });
    expect(result.structuredContent).toMatchObject({ forecast: '3-day forecast for Lyon from stdio-stub: mild' });
  });

  it('validates arguments with the same validator as the runner', async () => {
    const result = await call(client, 'get_weather', { city: 7, extra: true });
    expect(result.isError).toBe(true);
    expect(errorCodeOf(result)).toBe('INVALID_ARGUMENTS');
    expect((result.content[0] as { text: string }).text).toContain('city: got 7, expected string');
  });

  it('reports thrown errors and unknown tools as error results', async () => {
    const thrown = await call(client, 'get_weather', { city: 'Atlantis' });
    expect(errorCodeOf(thrown)).toBe('TOOL_EXECUTION_FAILED');
    expect((thrown.content[0] as { text: string }).text).toBe('The tool failed: no weather data for Atlantis');
    expect(errorCodeOf(await call(client, 'nope'))).toBe('TOOL_NOT_FOUND');
  });

  it('refuses a tool that needs confirmation when the client has no elicitation', async () => {
    const result = await call(client, 'delete_everything', { scope: 'all' });
    expect(errorCodeOf(result)).toBe('MCP_CONFIRMATION_UNSUPPORTED');
    expect((result.content[0] as { text: string }).text).toContain('does not support elicitation');
  });
});

describe('serveMcp over Streamable HTTP on 127.0.0.1', () => {
  let tools: ReturnType<typeof createServedTestTools>;
  let server: McpServerHandle;
  const clients: Client[] = [];

  beforeEach(async () => {
    tools = createServedTestTools();
    server = await serveMcp({
      tools: [...Object.values(tools), ForecastTools],
      providers: [{ provide: ForecastApi, useValue: new ForecastApi('http-stub') }],
      transport: { http: { port: 0 } },
      progressIntervalMs: 40,
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await server.close();
  });

  async function connect(answer?: (message: string) => { action: 'accept' | 'decline'; content?: { confirmed: boolean } }) {
    const client = new Client({ name: 'http-test', version: '1.0.0' }, answer ? { capabilities: { elicitation: {} } } : {});
    if (answer) client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
    await client.connect(new StreamableHTTPClientTransport(server.url!));
    clients.push(client);
    return client;
  }

  it('serves at the returned URL', async () => {
    expect(server.url!.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect();
    expect((await call(client, 'get_weather', { city: 'Oslo', unit: 'fahrenheit' })).structuredContent).toMatchObject({ unit: 'fahrenheit' });
  });

  it('refuses requests addressed to a non-loopback host name (DNS rebinding)', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        server.url!,
        { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it('gives tools the MCP session as their session', async () => {
    const client = await connect();
    const transport = client.transport as StreamableHTTPClientTransport;
    const result = await call(client, 'wx_forecast', { city: 'Bergen', days: 2 });
    expect(result.structuredContent).toEqual({ forecast: '2-day forecast for Bergen from http-stub: mild', session: transport.sessionId });
  });

  it('keeps state per MCP session, per user and per app', async () => {
    const first = await connect();
    const second = await connect();
    await call(first, 'count_visits');
    const again = (await call(first, 'count_visits')).structuredContent;
    const other = (await call(second, 'count_visits')).structuredContent;
    expect(again).toMatchObject({ session: 2, app: 2 });
    expect(other).toMatchObject({ session: 1, app: 3 });
    expect(other!.sessionId).not.toBe(again!.sessionId);
    // No auth: every client is the same user.
    expect(other!.user).toBe(3);
  });

  it('asks for confirmation through elicitation and runs the tool once approved', async () => {
    const asked: string[] = [];
    const client = await connect((message) => {
      asked.push(message);
      return { action: 'accept', content: { confirmed: true } };
    });
    const result = await call(client, 'delete_everything', { scope: 'tmp' });
    expect(result.structuredContent).toEqual({ deleted: 'tmp', confirmed: true });
    expect(asked).toEqual(['Please approve or reject the call to tool "delete_everything".']);
    expect(tools.dangerous.runs).toBe(1);
  });

  it('does not run the tool when the user declines', async () => {
    const client = await connect(() => ({ action: 'decline' }));
    const result = await call(client, 'delete_everything', { scope: 'all' });
    expect(errorCodeOf(result)).toBe('TOOL_CALL_REJECTED');
    expect(tools.dangerous.runs).toBe(0);
  });

  it('answers an acceptance without a boolean "confirmed" MCP_CONFIRMATION_FAILED, not as the user\'s rejection, and runs nothing', async () => {
    for (const answer of [{ action: 'accept', content: { confirmed: 'true' } }, { action: 'accept' }, { action: 'accept', content: { confirmed: 1 } }]) {
      const client = await connect(() => answer as { action: 'accept' });
      const result = await call(client, 'delete_everything', { scope: 'all' });
      expect(errorCodeOf(result)).toBe('MCP_CONFIRMATION_FAILED');
      expect((result.content[0] as { text: string }).text).toBe(
        `The client accepted the confirmation of tool "delete_everything" without a boolean "confirmed" (its content: ${JSON.stringify(answer.content ?? null)}), so nobody approved or rejected the call; the tool did not run.`,
      );
    }
    const declined = await call(await connect(() => ({ action: 'accept', content: { confirmed: false } })), 'delete_everything', { scope: 'all' });
    expect(errorCodeOf(declined)).toBe('TOOL_CALL_REJECTED');
    expect(tools.dangerous.runs).toBe(0);
  });

  it('sends progress notifications for long-running tools', async () => {
    const client = await connect();
    const updates: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = (await client.callTool({ name: 'slow_export', arguments: { pages: 2 } }, undefined, {
      onprogress: (update) => updates.push(update),
    })) as CallToolResult;
    expect(result.structuredContent).toEqual({ status: 'done', pages: 2 });
    expect(updates[0]).toEqual({ progress: 0, message: 'started' });
    expect(updates.some((update) => update.message?.startsWith('still running'))).toBe(true);
    expect(updates.slice(-2).map((update) => update.message)).toEqual(['page 1', 'page 2']);
    const values = updates.map((update) => update.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });
});

describe('serveMcp startup checks', () => {
  it('fails before serving when a class has no tools or two tools share a name', async () => {
    class Plain {}
    await expect(serveMcp({ tools: [Plain], transport: { http: { port: 0 } } })).rejects.toMatchObject({ code: 'NO_TOOLS' });
    const { weather } = createServedTestTools();
    await expect(serveMcp({ tools: [weather, createServedTestTools().weather], transport: { http: { port: 0 } } })).rejects.toMatchObject({
      code: 'DUPLICATE_TOOL_NAME',
      message: expect.stringContaining('"get_weather"'),
    });
  });
});

describe('serveMcp with a toolset that fails', () => {
  it('answers the call with an error result and keeps serving', async () => {
    let fail = false;
    const toolset = {
      getTools: async () => {
        if (fail) throw new Error('registry offline');
        return [createServedTestTools().weather];
      },
    };
    const server = await serveMcp({ tools: [toolset], transport: { http: { port: 0 } } });
    const client = new Client({ name: 'failing-toolset', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url!));
      fail = true;
      const result = await call(client, 'get_weather', { city: 'Rome' });
      expect(errorCodeOf(result)).toBe('MCP_TOOLS_UNAVAILABLE');
      expect((result.content[0] as { text: string }).text).toBe('The tools could not be listed: registry offline');
      fail = false;
      expect((await call(client, 'get_weather', { city: 'Rome' })).structuredContent).toMatchObject({ city: 'Rome' });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('serveMcp holds error results to the result budget, as the runner does', () => {
  it('cuts a toolset error of 500,000 characters to the default budget, and a tool error to its own, keeping the code', async () => {
    let fail = true;
    const huge = functionTool({
      name: 'huge',
      description: 'Fails at length.',
      maxResultChars: 300,
      parameters: { type: 'object', properties: {} },
      execute: () => {
        throw new Error('y'.repeat(5000));
      },
    });
    const toolset = {
      getTools: async () => {
        if (fail) throw new ToolsmithError('REGISTRY_DOWN', 'x'.repeat(500_000), { details: { dump: 'z'.repeat(500_000) } });
        return [huge];
      },
    };
    const server = await serveMcp({ tools: [toolset], transport: { http: { port: 0 } } });
    const client = new Client({ name: 'huge-errors', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url!));
      const unavailable = await call(client, 'huge');
      expect(unavailable.isError).toBe(true);
      expect(errorCodeOf(unavailable)).toBe('REGISTRY_DOWN');
      expect(JSON.stringify(unavailable.structuredContent).length).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_CHARS);
      const body = unavailable.structuredContent!.error as { message: string; details?: unknown; detailsOmitted?: string };
      expect(body.details).toBeUndefined();
      expect(body.detailsOmitted).toMatch(/^the error's details were 500011 characters of JSON/);
      expect(body.message).toMatch(/^x+…$/);
      expect((unavailable.content[0] as { text: string }).text).toBe(body.message);

      fail = false;
      const failed = await call(client, 'huge');
      expect(errorCodeOf(failed)).toBe('TOOL_EXECUTION_FAILED');
      expect(JSON.stringify(failed.structuredContent).length).toBeLessThanOrEqual(300);
      expect((failed.content[0] as { text: string }).text).toMatch(/^The tool failed: y+…$/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('serveMcp with memory and artifact services', () => {
  async function withServer(options: Partial<Parameters<typeof serveMcp>[0]>, body: (client: Client, sessionId: string) => Promise<void>) {
    const server = await serveMcp({ tools: createServiceTools(), transport: { http: { port: 0 } }, name: 'notes', ...options });
    const client = new Client({ name: 'services', version: '1.0.0' });
    try {
      const transport = new StreamableHTTPClientTransport(server.url!);
      await client.connect(transport);
      await body(client, transport.sessionId!);
    } finally {
      await client.close();
      await server.close();
    }
  }

  it('gives tools the artifact service, keyed by app, user and MCP session', async () => {
    const artifactService = new InMemoryArtifactService();
    await withServer({ artifactService }, async (client, sessionId) => {
      expect((await call(client, 'save_note', { filename: 'todo.txt', text: 'buy milk' })).structuredContent).toEqual({ version: 0, files: ['todo.txt'] });
      expect((await call(client, 'save_note', { filename: 'todo.txt', text: 'buy tea' })).structuredContent).toMatchObject({ version: 1 });
      expect((await call(client, 'read_note', { filename: 'todo.txt' })).structuredContent).toEqual({ text: 'buy tea' });
      const location = { appName: 'notes', userId: 'mcp', sessionId, filename: 'todo.txt' };
      expect(await artifactService.listVersions(location)).toEqual([0, 1]);
      expect(await artifactService.loadArtifact({ ...location, version: 0 })).toEqual({ text: 'buy milk' });
    });
  });

  it('saves a result cut to the budget whole as an artifact of the MCP session, as the runner does', async () => {
    const artifactService = new InMemoryArtifactService();
    const big = functionTool({ name: 'big', description: 'A long answer.', maxResultChars: 200, parameters: { type: 'object', properties: {} }, execute: () => ({ text: 'x'.repeat(1000) }) });
    await withServer({ artifactService, tools: [...createServiceTools(), big] }, async (client, sessionId) => {
      const result = (await call(client, 'big')).structuredContent as { truncated?: boolean; artifact?: string };
      expect(result).toMatchObject({ truncated: true, artifact: expect.stringMatching(/^tool-result-mcp-.+\.json$/) });
      const saved = await artifactService.loadArtifact({ appName: 'notes', userId: 'mcp', sessionId, filename: result.artifact! });
      expect(JSON.parse(Buffer.from(saved!.inlineData!.data, 'base64').toString())).toEqual({ text: 'x'.repeat(1000) });
    });
  });

  it("gives tools the memory service, searched for the app's user", async () => {
    const memoryService = new InMemoryMemoryService();
    await memoryService.addSessionToMemory({
      appName: 'notes',
      userId: 'mcp',
      id: 'earlier',
      events: [{ author: 'user', content: { role: 'user', parts: [{ text: 'I drink green tea' }] }, timestamp: 1 }],
    });
    await withServer({ memoryService }, async (client) => {
      expect((await call(client, 'recall', { query: 'tea' })).structuredContent).toEqual({ texts: ['I drink green tea'] });
    });
  });

  it('answers SERVICE_NOT_CONFIGURED when the service was not given', async () => {
    await withServer({}, async (client) => {
      const saved = await call(client, 'save_note', { filename: 'a.txt', text: 'x' });
      expect(saved.isError).toBe(true);
      expect(errorCodeOf(saved)).toBe('SERVICE_NOT_CONFIGURED');
      expect((saved.content[0] as { text: string }).text).toContain(
        'No artifactService was given, so ctx.saveArtifact cannot run. ' +
          'Fix: pass `artifactService` in the Runner options, or in the serveMcp options when the tools are served over MCP.',
      );
      expect(errorCodeOf(await call(client, 'recall', { query: 'tea' }))).toBe('SERVICE_NOT_CONFIGURED');
    });
  });
});

describe('serveMcp with output schemas', () => {
  let server: McpServerHandle;
  const client = new Client({ name: 'output-schemas', version: '1.0.0' });
  beforeAll(async () => {
    server = await serveMcp({ tools: [OutputSchemaTools], transport: { http: { port: 0 } } });
    await client.connect(new StreamableHTTPClientTransport(server.url!));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('declares outputSchema where the response schema can be promised, as an object schema', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.temperature.outputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
      additionalProperties: false,
    });
    expect(byName.cities.outputSchema).toMatchObject({ type: 'object', properties: { result: { type: 'array' } }, required: ['result'] });
    expect(byName.either.outputSchema).toBeUndefined();
  });

  it("answers with structuredContent that the SDK client's own output validation accepts", async () => {
    expect((await call(client, 'temperature', { city: 'Paris' })).structuredContent).toEqual({ city: 'Paris', celsius: 21 });
    expect((await call(client, 'cities')).structuredContent).toEqual({ result: ['Paris', 'Oslo'] });
    expect((await call(client, 'either')).structuredContent).toEqual({ shape: 'object' });
  });

  it("turns a result that breaks its outputSchema into an error result (core's TOOL_OUTPUT_INVALID, as in a run)", async () => {
    const result = await call(client, 'broken');
    expect(result.isError).toBe(true);
    // Not as structured content: the client would check that against the output schema too.
    expect(result.structuredContent).toBeUndefined();
    // Each problem once: the message lists it, so no details.problems repeats it.
    expect(result._meta?.['toolsmith/error']).toEqual({
      code: 'TOOL_OUTPUT_INVALID',
      message: 'The tool returned a result that does not match its output schema: celsius: got "warm", expected number.',
    });
    expect((result.content[0] as { text: string }).text).toBe('The tool returned a result that does not match its output schema: celsius: got "warm", expected number.');
  });

  it("answers a result over the budget MCP_RESULT_TOO_LARGE (saying the tool ran), since cut it would break the output schema", async () => {
    expect((await call(client, 'report', { chars: 1000 })).structuredContent).toEqual({ text: 'x'.repeat(1000) });
    const result = await call(client, 'report', { chars: DEFAULT_MAX_RESULT_CHARS }); // the SDK client checked it: no throw
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const message =
      `The tool failed to send its result: it ran, but the result is ${DEFAULT_MAX_RESULT_CHARS + 11} characters of JSON, over the limit of ${DEFAULT_MAX_RESULT_CHARS}, ` +
      "and cut to the limit it would not match the tool's output schema. Ask for less (a narrower query, a page), or raise the tool's maxResultChars.";
    expect(result._meta?.['toolsmith/error']).toEqual({ code: 'MCP_RESULT_TOO_LARGE', message, details: { originalChars: DEFAULT_MAX_RESULT_CHARS + 11, maxResultChars: DEFAULT_MAX_RESULT_CHARS } });
    expect((result.content[0] as { text: string }).text).toBe(message);

    // With an artifact service the whole result is saved, and the error names it.
    const artifactService = new InMemoryArtifactService();
    const saving = await serveMcp({ tools: [OutputSchemaTools], transport: { http: { port: 0 } }, artifactService });
    const savingClient = new Client({ name: 'output-schemas-saved', version: '1.0.0' });
    try {
      await savingClient.connect(new StreamableHTTPClientTransport(saving.url!));
      const saved = await call(savingClient, 'report', { chars: DEFAULT_MAX_RESULT_CHARS });
      const error = saved._meta?.['toolsmith/error'] as { code: string; message: string; details: { artifact: string } };
      expect(error.code).toBe('MCP_RESULT_TOO_LARGE');
      expect(error.message).toContain(`The whole result is saved as the artifact "${error.details.artifact}".`);
      const sessionId = savingClient.transport!.sessionId!;
      const whole = await artifactService.loadArtifact({ appName: 'toolsmith', userId: 'mcp', sessionId, filename: error.details.artifact });
      expect(JSON.parse(Buffer.from(whole!.inlineData!.data, 'base64').toString())).toEqual({ text: 'x'.repeat(DEFAULT_MAX_RESULT_CHARS) });
    } finally {
      await savingClient.close();
      await saving.close();
    }
  });

  it('reports other failures of such tools in _meta too, so the client accepts them', async () => {
    const result = await call(client, 'temperature', { city: 7 });
    expect(result.isError).toBe(true);
    expect(result._meta?.['toolsmith/error']).toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });
});
