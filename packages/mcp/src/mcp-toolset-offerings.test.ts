import { BaseTool, type Content, type Event, type JsonSchema, LlmAgent, Runner, type ToolContext } from '@toolsmith/core';
import { SAMPLE_FILES, ScriptedModel, testToolContext } from '@toolsmith/core/testing';
import type { McpProtocolChoice } from './mcp-connection';
import { mcpClientSessionId } from './mcp-client-session-id';
import { McpToolset } from './mcp-toolset';
import { reportMcpProgress } from './report-mcp-progress';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { ConformanceOfferings } from './__fixtures__/conformance-offerings';
import { createServedTestTools } from './__fixtures__/served-tools';
import { bundleFixture } from './__fixtures__/bundle-fixture';
import { callThrough, errorCode } from './__fixtures__/tool-harness';

// McpToolset against Toolsmith servers (serveMcp): a server's resources and prompts used by an agent, the
// session id it names on 2026-07-28 requests, and progress that keeps a long call alive.

type ToolsetTransport = ConstructorParameters<typeof McpToolset>[0]['transport'];

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

async function send(runner: Runner, newMessage: Content, userId = 'u1', sessionId = 's1'): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId, sessionId, newMessage })) events.push(event);
  return events;
}

const responseOf = (events: Event[], id: string) => events.flatMap((event) => event.functionResponses()).find((response) => response.id === id);

describe.each([
  ['Streamable HTTP', '2025-11-25', 'http'],
  ['Streamable HTTP', '2026-07-28', 'http'],
  ['stdio (a real child process)', '2025-11-25', 'stdio'],
  ['stdio (a real child process)', '2026-07-28', 'stdio'],
] as const)("a Toolsmith server's resources and prompts over %s, %s", (_label, protocol: McpProtocolChoice, kind) => {
  let transport: ToolsetTransport;
  let server: McpServerHandle | undefined;
  beforeAll(async () => {
    if (kind === 'http') {
      server = await serveMcp({ tools: [ConformanceOfferings], transport: { http: { port: 0 } }, name: 'offerings' });
      transport = { url: server.url! };
    } else {
      transport = { command: process.execPath, args: [await bundleFixture('serve-offerings-stdio-fixture.ts')], stderr: 'ignore' };
    }
  });
  afterAll(() => server?.close());

  it('an agent lists and reads resources (text as text, an image as an image), with a prompt as its instruction', async () => {
    const toolset = new McpToolset({ transport, protocol, resources: true, prefix: 'docs_' });
    const model = new ScriptedModel([
      { calls: [{ id: 'r1', name: 'docs_list_resources', args: {} }] },
      {
        calls: [
          { id: 'r2', name: 'docs_read_resource', args: { uri: 'test://static-text' } },
          { id: 'r3', name: 'docs_read_resource', args: { uri: 'test://static-binary' } },
          { id: 'r4', name: 'docs_read_resource', args: { uri: 'test://template/7/data' } },
          { id: 'r5', name: 'docs_read_resource', args: { uri: 'test://nothing-here' } },
        ],
      },
      'Read them.',
    ]);
    const agent = new LlmAgent({ name: 'reader', model, tools: [toolset], instruction: toolset.promptInstruction('test_prompt_with_arguments', (ctx) => ({ arg1: ctx.userId, arg2: 'b' })) });
    const runner = new Runner({ appName: 'docs', agent });
    try {
      const events = await send(runner, user('read the docs'));
      expect(model.requests[0].systemInstruction).toBe("Prompt with arguments: arg1='u1', arg2='b'");
      expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['docs_list_resources', 'docs_read_resource']);
      expect(responseOf(events, 'r1')?.response).toEqual({
        resources: expect.arrayContaining([
          { uri: 'test://static-text', name: 'static-text', description: 'A fixed text resource.', mimeType: 'text/plain' },
          { uri: 'test://static-binary', name: 'static-binary', description: 'A fixed binary resource.' },
          { uri: 'test://example-resource', name: 'example-resource', description: 'The resource a prompt embeds.' },
        ]),
        resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data of one id.', mimeType: 'application/json' }],
      });
      expect(responseOf(events, 'r2')?.response).toEqual({ output: '[resource test://static-text (text/plain)]\nThis is the content of the static text resource.' });
      expect(responseOf(events, 'r4')?.response).toEqual({ output: '[resource test://template/7/data (application/json)]\n{"id":"7","data":"Data for ID: 7"}' });
      expect(responseOf(events, 'r5')).toMatchObject({ isError: true, response: { error: { code: 'MCP_PROTOCOL_ERROR' } } });
      // The image is sent to the model as an image (a file part of the function response), not as base64 in JSON.
      const sent = model.requests[2].contents.flatMap((content) => content.parts).find((part) => part.functionResponse?.id === 'r3')?.functionResponse;
      expect(sent?.response).toEqual({ output: '' });
      expect(sent?.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'static-binary' } }]);
      expect(events.at(-1)!.text()).toBe('Read them.');

      // The same, asked by the application: prompts as messages (an image prompt included), and completions.
      expect((await toolset.listPrompts()).map((prompt) => prompt.name)).toEqual(
        expect.arrayContaining(['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_image']),
      );
      expect(await toolset.getPrompt('test_prompt_with_image')).toEqual({
        description: 'A prompt with an image.',
        messages: [
          { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: SAMPLE_FILES.png } }] },
          { role: 'user', parts: [{ text: 'Please analyze the image above.' }] },
        ],
      });
      expect((await toolset.getPrompt('test_prompt_with_embedded_resource', { resourceUri: 'test://example-resource' })).messages[0]).toEqual({
        role: 'user',
        parts: [{ text: '[resource test://example-resource (text/plain)]\nEmbedded resource content for testing.' }],
      });
      expect(await toolset.complete({ prompt: 'test_prompt_with_arguments' }, { name: 'arg1', value: 'pa' })).toMatchObject({ values: ['paris', 'park'] });
      expect(await toolset.readResource('test://static-text')).toEqual([{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }]);
    } finally {
      await runner.close();
    }
  });
});

describe('McpToolset: prompts that cannot be instructions, calls without the run', () => {
  let server: McpServerHandle;
  beforeAll(async () => (server = await serveMcp({ tools: [ConformanceOfferings, new OwnListResourcesTool()], transport: { http: { port: 0 } }, name: 'offerings' })));
  afterAll(() => server.close());

  it('refuses an image prompt as an instruction (MCP_PROMPT_NOT_TEXT), an unknown prompt is the server\'s error, and per-run headers need the context', async () => {
    const toolset = new McpToolset({ transport: { url: server.url! } });
    try {
      const context = testToolContext();
      await expect(toolset.promptInstruction('test_prompt_with_image')(context)).rejects.toMatchObject({ code: 'MCP_PROMPT_NOT_TEXT' });
      await expect(toolset.getPrompt('no_such_prompt')).rejects.toMatchObject({ code: 'MCP_PROTOCOL_ERROR' });
      await expect(toolset.getPrompt('test_prompt_with_arguments', { arg1: 'only one' })).rejects.toMatchObject({ code: 'MCP_PROTOCOL_ERROR' });
      // Without `resources: true`, no resource tools.
      expect((await toolset.getTools(context)).map((tool) => tool.name)).toEqual(['list_resources']);
    } finally {
      await toolset.close();
    }
    // With it, the server's own tool of that name wins.
    const withResources = new McpToolset({ transport: { url: server.url! }, resources: true });
    try {
      const context = testToolContext();
      expect((await withResources.getTools(context)).map((tool) => tool.name)).toEqual(['list_resources', 'read_resource']);
      expect((await callThrough(withResources, 'list_resources', {}, context)).response).toEqual({ result: "the server's own" });
    } finally {
      await withResources.close();
    }
    const perUser = new McpToolset({ transport: { url: server.url!, headers: (ctx) => ({ 'x-user': ctx.userId }) } });
    await expect(perUser.listPrompts()).rejects.toMatchObject({ code: 'MCP_CONTEXT_REQUIRED' });
    await perUser.close();
  });
});

/** A served tool named like McpToolset's resource listing tool. */
class OwnListResourcesTool extends BaseTool {
  readonly name = 'list_resources';
  readonly description = "The server's own tool of that name.";
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  run() {
    return "the server's own";
  }
}

/** Reports progress step by step, each step once the client got the previous one, until past `runForMs`. */
class LongJobTool extends BaseTool {
  readonly name = 'long_job';
  readonly description = 'Works for a while, reporting progress.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  private readonly received = new Map<number, () => void>();
  constructor(private readonly runForMs: number) {
    super();
  }

  /** The client saw progress `step`. */
  acknowledge(step: number): void {
    this.received.get(step)?.();
  }

  async run(_args: Record<string, unknown>, context: ToolContext) {
    const started = Date.now();
    let step = 0;
    while (Date.now() - started < this.runForMs) {
      step++;
      const seen = new Promise<void>((resolve) => this.received.set(step, resolve));
      if (!(await reportMcpProgress(context, { progress: step, message: `step ${step}` }))) return { progressToken: false };
      await seen;
      await new Promise((resolve) => setTimeout(resolve, 50)); // pacing only: the next step waits for the client, not for time
    }
    return { steps: step };
  }
}

describe('McpToolset against serveMcp: progress and sessions', () => {
  // The clock only matters if a loaded machine stalls one progress round trip for TIMEOUT_MS: make
  // that stall implausible (each round trip is a loopback message); the call itself runs 1.2× as long.
  const TIMEOUT_MS = 3000;
  let server: McpServerHandle;
  let longJob: LongJobTool;
  beforeAll(async () => {
    longJob = new LongJobTool(TIMEOUT_MS * 1.2);
    server = await serveMcp({ tools: [longJob, createServedTestTools().counter], transport: { http: { port: 0 } }, name: 'jobs' });
  });
  afterAll(() => server.close());

  it.each(['2025-11-25', '2026-07-28'] as const)('over %s, progress restarts the timeout: a call reporting progress outlives timeoutMs, and onProgress sees each step', async (protocol) => {
    const seen: string[] = [];
    const toolset = new McpToolset({
      transport: { url: server.url! },
      protocol,
      timeoutMs: TIMEOUT_MS,
      onProgress: (progress, context) => {
        seen.push(`${progress.tool}:${progress.message}:${context.functionCallId}`);
        longJob.acknowledge(progress.progress);
      },
    });
    try {
      const response = await callThrough(toolset, 'long_job', {});
      expect(errorCode(response)).toBeUndefined();
      const steps = (response.response as { steps: number }).steps;
      expect(steps).toBeGreaterThan(1);
      expect(seen).toEqual(Array.from({ length: steps }, (_, index) => `long_job:step ${index + 1}:call-1`));
    } finally {
      await toolset.close();
    }
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('over %s, an onProgress that throws or rejects is a process warning: the call goes on, the process lives', async (protocol) => {
    const emit = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    let step = 0;
    const toolset = new McpToolset({
      transport: { url: server.url! },
      protocol,
      timeoutMs: TIMEOUT_MS,
      onProgress: async (progress) => {
        longJob.acknowledge(progress.progress);
        if (++step === 1) throw new Error('the progress bar is gone'); // rejects (async)
      },
    });
    try {
      const response = await callThrough(toolset, 'long_job', {});
      expect(errorCode(response)).toBeUndefined();
      expect(emit.mock.calls.map(([message, options]) => [String(message), (options as { code?: string }).code])).toEqual([
        ["McpToolset's onProgress failed, and the call goes on: the progress bar is gone", 'TOOLSMITH_MCP_LISTENER_FAILED'],
      ]);
    } finally {
      emit.mockRestore();
      await toolset.close();
    }
  });

  it('names the agent\'s session on 2026-07-28 calls: one server session per conversation, never shared with another user', async () => {
    const toolset = new McpToolset({ transport: { url: server.url! }, protocol: '2026-07-28', resources: true });
    const label = `${server.url!.origin}${server.url!.pathname}`;
    const visit = async (userId: string, sessionId: string) => {
      const context = testToolContext({ appName: 'app', userId, sessionId });
      const response = (await callThrough(toolset, 'count_visits', {}, context)).response as { session: number; sessionId: string };
      expect(response.sessionId).toBe(mcpClientSessionId(label, context));
      return response;
    };
    try {
      // A server that declares no resources gets no resource tools, even with `resources: true`.
      expect((await toolset.getTools(testToolContext())).map((tool) => tool.name)).toEqual(['long_job', 'count_visits']);
      expect((await visit('ada', 'conversation-1')).session).toBe(1);
      const again = await visit('ada', 'conversation-1');
      expect(again.session).toBe(2);
      expect(again.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await visit('ada', 'conversation-2')).session).toBe(1);
      const otherUser = await visit('bob', 'conversation-1');
      expect(otherUser.session).toBe(1);
      expect(otherUser.sessionId).not.toBe(again.sessionId);
    } finally {
      await toolset.close();
    }
  });
});
