import { BaseTool, type Content, type Event, InMemorySessionService, type JsonSchema, LlmAgent, Runner, confirmationRequests, confirmationResponse, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import type { McpProtocolChoice } from './mcp-connection';
import { McpToolset } from './mcp-toolset';
import { type McpElicitationHandler, acceptFormDefaults } from './mcp-elicitation-handler';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { DangerousTool, createPublishTool } from './__fixtures__/served-tools';
import { RED_DOT_PNG, startModernHttpServer } from './__fixtures__/modern-mcp-server';
import { startSdk1HttpServer } from './__fixtures__/sdk1-mcp-server';
import { callThrough, errorCode } from './__fixtures__/tool-harness';
import { bundleFixture } from './__fixtures__/bundle-fixture';

/** A served tool that holds its call until released: a second call of the same session is then in flight beside it. */
class HoldTool extends BaseTool {
  readonly name = 'hold';
  readonly description = 'Waits until released.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  private readonly releaseCall = deferred();
  private readonly startedCall = deferred();
  readonly started = this.startedCall.promise;
  release = this.releaseCall.resolve;

  async run() {
    this.startedCall.resolve();
    await this.releaseCall.promise;
    return { held: true };
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

type ToolsetTransport = ConstructorParameters<typeof McpToolset>[0]['transport'];

/** A runner whose agent uses the server's tools through McpToolset; the session store outlives it (a restart keeps it). */
function agentRunner(transport: ToolsetTransport, sessionService: InMemorySessionService, script: ConstructorParameters<typeof ScriptedModel>[0], protocol?: McpProtocolChoice, onElicitation?: McpElicitationHandler) {
  const toolset = new McpToolset({ transport, timeoutMs: 20_000, protocol, onElicitation });
  const model = new ScriptedModel(script);
  const runner = new Runner({ appName: 'ops', agent: new LlmAgent({ name: 'operator', model, tools: [toolset] }), sessionService });
  return { runner, model };
}

async function send(runner: Runner, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
  return events;
}

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const responseOf = (events: Event[], id: string) => events.flatMap((event) => event.functionResponses()).find((response) => response.id === id);

const DEPLOY_FORM = {
  type: 'object',
  properties: {
    env: { type: 'string', enum: ['staging', 'production'], default: 'staging' },
    replicas: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
  },
  required: ['env'],
};

describe.each([
  ['Streamable HTTP', 'http'],
  ['stdio (a real child process)', 'stdio'],
] as const)('a 2026-07-28-only server (SDK v2, stateless) over %s: input_required becomes the runner\'s pause', (_label, kind) => {
  let transport: ToolsetTransport;
  let stop: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    if (kind === 'http') {
      const server = await startModernHttpServer();
      transport = { url: server.url };
      stop = server.close;
    } else {
      // Bundled once: the SDK starts a stdio server twice per connection (a probe, then the session).
      transport = { command: process.execPath, args: [await bundleFixture('modern-mcp-server.ts')], stderr: 'ignore' };
    }
  });
  afterAll(() => stop());

  it('lists and calls tools, pauses for the form, refuses an answer that does not fill it in, and resumes after a runner restart', async () => {
    const sessionService = new InMemorySessionService();
    const first = agentRunner(transport, sessionService, [
      { calls: [{ id: 'c0', name: 'echo', args: { text: 'hi' } }] },
      'Said hi.',
      { calls: [{ id: 'c1', name: 'deploy', args: { service: 'api' } }] },
    ]);
    let paused: Event[];
    try {
      expect(responseOf(await send(first.runner, user('say hi')), 'c0')?.response).toEqual({ output: 'echo: hi' });
      // Files of a 2026-era result reach the model as files, as from a 2025-era server.
      const files = new McpToolset({ transport });
      try {
        const snapshot = await callThrough(files, 'snapshot', {});
        expect(snapshot.response).toEqual({ output: 'a red dot' });
        expect(snapshot.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: RED_DOT_PNG } }]);
      } finally {
        await files.close();
      }
      paused = await send(first.runner, user('deploy api'));
    } finally {
      await first.runner.close();
    }
    const [request] = paused.flatMap((event) => confirmationRequests(event));
    expect(request.originalFunctionCall).toMatchObject({ id: 'c1', name: 'deploy', args: { service: 'api' } });
    expect(request.hint).toBe('Where should api go?');
    expect(request.payloadSchema).toEqual(DEPLOY_FORM);
    expect(request.payload).toMatchObject({ mcpInput: { tool: 'deploy', era: 'modern', keys: ['target'], requestState: 'deploy:api' } });
    expect(responseOf(paused, 'c1')).toBeUndefined();

    // Another process resumes the session: a new runner and a new toolset, the same session store.
    const second = agentRunner(transport, sessionService, ['Deployed to production.']);
    try {
      const refused = await send(second.runner, confirmationResponse(request, { decision: 'approve', payload: { env: 'moon' } }));
      expect(refused.map((event) => event.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
      expect(refused[0].errorMessage).toContain('env: got "moon", expected one of "staging" | "production"');
      const missing = await send(second.runner, confirmationResponse(request, { decision: 'approve' }));
      expect(missing[0].errorMessage).toContain('its "payload" must be the filled-in form');

      const resumed = await send(second.runner, confirmationResponse(request, { decision: 'approve', payload: { env: 'production', replicas: 2 } }));
      expect(responseOf(resumed, 'c1')?.response).toEqual({ output: 'deployed api to production x2' });
      expect(resumed.at(-1)!.text()).toBe('Deployed to production.');
    } finally {
      await second.runner.close();
    }
  });
});

describe('a 2026-07-28-only server: a rejected form', () => {
  let server: Awaited<ReturnType<typeof startModernHttpServer>>;
  beforeAll(async () => (server = await startModernHttpServer()));
  afterAll(() => server.close());

  it('a rejection answers the call with TOOL_CALL_REJECTED and sends nothing again', async () => {
    const sessionService = new InMemorySessionService();
    const { runner } = agentRunner({ url: server.url }, sessionService, [{ calls: [{ id: 'c1', name: 'deploy', args: { service: 'db' } }] }, 'Not deployed.']);
    try {
      const [request] = (await send(runner, user('deploy db'))).flatMap((event) => confirmationRequests(event));
      const answered = await send(runner, confirmationResponse(request, { decision: 'reject', message: 'not today' }));
      expect(responseOf(answered, 'c1')).toMatchObject({ isError: true, response: { error: { code: 'TOOL_CALL_REJECTED' } } });
      expect(answered.at(-1)!.text()).toBe('Not deployed.');
    } finally {
      await runner.close();
    }
  });

  it.each([
    ['sampling', 'ask_model'],
    ['a URL elicitation', 'open_page'],
  ])('declares only form elicitation: a server that wants %s is refused by its own SDK (MCP_PROTOCOL_ERROR)', async (_label, tool) => {
    const toolset = new McpToolset({ transport: { url: server.url } });
    try {
      const response = await callThrough(toolset, tool, {});
      expect(errorCode(response)).toBe('MCP_PROTOCOL_ERROR');
      expect((response.response.error as { message: string }).message).toContain('client capabilities do not declare the required capability');
    } finally {
      await toolset.close();
    }
  });

  it('with onElicitation: acceptFormDefaults, a form whose every field has a default is answered at once; another form is asked of the person', async () => {
    const origins: unknown[] = [];
    const handler: McpElicitationHandler = (form, origin) => {
      origins.push(origin);
      return acceptFormDefaults(form);
    };
    const { runner } = agentRunner({ url: server.url }, new InMemorySessionService(), [
      { calls: [{ id: 'c1', name: 'deploy', args: { service: 'web' } }] },
      { calls: [{ id: 'c2', name: 'ask_twice', args: {} }] },
    ], undefined, handler);
    try {
      const events = await send(runner, user('deploy web, then ask'));
      expect(responseOf(events, 'c1')?.response).toEqual({ output: 'deployed web to staging x1' });
      const [request] = events.flatMap((event) => confirmationRequests(event));
      expect(request.originalFunctionCall).toMatchObject({ id: 'c2', name: 'ask_twice' });
      expect(origins).toEqual([{ server: expect.stringContaining('/mcp'), tool: 'deploy' }, { server: expect.stringContaining('/mcp'), tool: 'ask_twice' }]);
    } finally {
      await runner.close();
    }
  });

  it('answers a server that asks again after the answer with MCP_INPUT_UNSUPPORTED (one round per call)', async () => {
    const { runner } = agentRunner({ url: server.url }, new InMemorySessionService(), [{ calls: [{ id: 'c1', name: 'ask_twice', args: {} }] }, 'Gave up.']);
    try {
      const [request] = (await send(runner, user('go'))).flatMap((event) => confirmationRequests(event));
      const answered = await send(runner, confirmationResponse(request, { decision: 'approve', payload: { sure: true } }));
      expect(responseOf(answered, 'c1')).toMatchObject({ isError: true, response: { error: { code: 'MCP_INPUT_UNSUPPORTED' } } });
    } finally {
      await runner.close();
    }
  });
});

describe.each([
  ['Streamable HTTP', 'http'],
  ['stdio (a real child process)', 'stdio'],
] as const)('a 2025-era-only server (SDK 1.x, sessions) over %s: its form elicitation becomes the runner\'s pause', (_label, kind) => {
  let transport: ToolsetTransport;
  let stop: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    if (kind === 'http') {
      const server = await startSdk1HttpServer();
      transport = { url: server.url };
      stop = server.close;
    } else {
      transport = { command: process.execPath, args: [await bundleFixture('sdk1-mcp-server.ts')], stderr: 'ignore' };
    }
  });
  afterAll(() => stop());

  it('calls its tools, pauses for its enum form, and answers its elicitation when the call is sent again', async () => {
    const { runner } = agentRunner(transport, new InMemorySessionService(), [
      { calls: [{ id: 'c0', name: 'echo', args: { text: 'hi' } }] },
      'Said hi.',
      { calls: [{ id: 'c1', name: 'book', args: { guest: 'Ada' } }] },
      'Booked.',
    ]);
    try {
      expect(responseOf(await send(runner, user('say hi')), 'c0')?.response).toEqual({ output: 'echo: hi' });
      const [request] = (await send(runner, user('book for Ada'))).flatMap((event) => confirmationRequests(event));
      expect(request.hint).toBe('Which room for Ada?');
      expect(request.payloadSchema).toMatchObject({ properties: { room: { enum: ['single', 'double'], default: 'single' } }, required: ['room'] });
      expect(request.payload).toMatchObject({ mcpInput: { tool: 'book', era: 'legacy', keys: ['elicitation'] } });
      const resumed = await send(runner, confirmationResponse(request, { decision: 'approve', payload: { room: 'double', nights: 3 } }));
      expect(responseOf(resumed, 'c1')?.response).toEqual({ output: 'booked a double room for Ada, 3 night(s)' });
    } finally {
      await runner.close();
    }
  });

  it('with onElicitation: acceptFormDefaults, answers its all-defaults form during the call, without a pause', async () => {
    const toolset = new McpToolset({ transport, timeoutMs: 20_000, onElicitation: acceptFormDefaults });
    try {
      expect((await callThrough(toolset, 'book', { guest: 'Ada' })).response).toEqual({ output: 'booked a single room for Ada, 1 night(s)' });
    } finally {
      await toolset.close();
    }
  });

  it('answers a call whose server asks again after the answer with MCP_INPUT_UNSUPPORTED (one round per call), not with the server\'s result', async () => {
    const { runner } = agentRunner(transport, new InMemorySessionService(), [{ calls: [{ id: 'c1', name: 'ask_twice', args: {} }] }, 'Gave up.']);
    try {
      const [request] = (await send(runner, user('go'))).flatMap((event) => confirmationRequests(event));
      expect(request.hint).toBe('First?');
      const answered = await send(runner, confirmationResponse(request, { decision: 'approve', payload: { ok: true } }));
      expect(responseOf(answered, 'c1')).toMatchObject({ isError: true, response: { error: { code: 'MCP_INPUT_UNSUPPORTED' } } });
    } finally {
      await runner.close();
    }
  });
});

describe('a Toolsmith server (serveMcp, both eras): its confirmation becomes the client runner\'s pause', () => {
  let dangerous: DangerousTool;
  let hold: HoldTool;
  /** What the served `deploy` ran with: it asks its own form first (ctx.requestConfirmation({ payloadSchema })). */
  let deployed: Array<{ args: Record<string, unknown>; payload: unknown }>;
  /** The drafts the served `publish` published: it asks a plain question first, with editable: false. */
  let published: string[];
  let server: McpServerHandle;
  /** The server's own store: what it records of each call. */
  let serverSessions: InMemorySessionService;
  beforeAll(async () => {
    dangerous = new DangerousTool();
    hold = new HoldTool();
    serverSessions = new InMemorySessionService();
    deployed = [];
    const deploy = functionTool({
      name: 'deploy',
      description: 'Deploys a service where the person says.',
      parameters: { type: 'object', properties: { svc: { type: 'string' } }, required: ['svc'] },
      execute: (args: { svc: string }, ctx) => {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: `Where should ${args.svc} go?`, payloadSchema: { type: 'object', properties: { env: { type: 'string', enum: ['staging', 'production'] } }, required: ['env'] } });
          return {};
        }
        deployed.push({ args, payload: ctx.toolConfirmation.payload });
        return { deployed: args.svc, env: (ctx.toolConfirmation.payload as { env: string }).env };
      },
    });
    published = [];
    const publish = createPublishTool(published);
    server = await serveMcp({ tools: [dangerous, hold, deploy, publish], transport: { http: { port: 0 } }, name: 'danger', sessionService: serverSessions });
  });
  afterAll(() => server.close());

  /** Every call response the server recorded, in any of its sessions. */
  const serverResponses = async () => {
    const sessions = await serverSessions.listSessions({ appName: 'danger', userId: 'mcp' });
    const full = await Promise.all(sessions.map((session) => serverSessions.getSession({ appName: 'danger', userId: 'mcp', sessionId: session.id })));
    return full.flatMap((session) => session!.events.flatMap((event) => event.functionResponses()));
  };
  const deletions = async () => (await serverResponses()).map((response) => response.response.deleted).filter((scope) => scope !== undefined);

  it.each([
    ['2025-11-25 (elicitation)', '2025-11-25', 'legacy'],
    ['2026-07-28 (input_required), negotiated', 'auto', 'modern'],
  ] as const)('over %s a gated tool is a plain confirmation, approved through the client\'s runner across a runner restart, and runs once', async (_label, protocol, era) => {
    const sessionService = new InMemorySessionService();
    const before = dangerous.runs;
    const first = agentRunner({ url: server.url! }, sessionService, [{ calls: [{ id: 'c1', name: 'delete_everything', args: { scope: 'tmp' } }] }], protocol);
    let paused: Event[];
    try {
      paused = await send(first.runner, user('clean tmp'));
    } finally {
      await first.runner.close();
    }
    const [request] = paused.flatMap((event) => confirmationRequests(event));
    expect(request.hint).toContain('delete_everything');
    // The server's confirmation of the call is the runner's own four decisions: no form to fill in.
    expect(request.payloadSchema).toBeUndefined();
    expect(request.payload).toMatchObject({ mcpInput: { tool: 'delete_everything', era } });
    expect(dangerous.runs).toBe(before); // nothing ran while the person was asked

    const second = agentRunner({ url: server.url! }, sessionService, ['Cleaned.'], protocol);
    try {
      const resumed = await send(second.runner, confirmationResponse(request, { decision: 'approve' }));
      expect(responseOf(resumed, 'c1')?.response).toEqual({ deleted: 'tmp', confirmed: true });
      expect(dangerous.runs).toBe(before + 1);
    } finally {
      await second.runner.close();
    }
  });

  describe.each([
    ['2025-11-25 (elicitation)', '2025-11-25'],
    ['2026-07-28 (input_required)', '2026-07-28'],
  ] as const)('over %s, the person\'s other decisions', (_label, protocol) => {
    /** A runner whose model asks to delete `scope`, paused on the server's confirmation; its request, and the runner to answer on. */
    const paused = async (scope: string, after: string) => {
      const { runner } = agentRunner({ url: server.url! }, new InMemorySessionService(), [{ calls: [{ id: 'c1', name: 'delete_everything', args: { scope } }] }, after], protocol);
      const [request] = (await send(runner, user(`clean ${scope}`))).flatMap((event) => confirmationRequests(event));
      expect(request.payloadSchema).toBeUndefined();
      return { runner, request };
    };

    it('an edit runs the edited arguments on the server, once; the client\'s session shows the edit; an edit the server\'s schema refuses is CONFIRMATION_EDIT_INVALID and runs nothing', async () => {
      const { runner, request } = await paused('photos', 'Cleaned the logs instead.');
      const before = dangerous.runs;
      try {
        const refused = await send(runner, confirmationResponse(request, { decision: 'edit', args: { scope: 7 } }));
        expect(refused.map((event) => event.errorCode)).toEqual(['CONFIRMATION_EDIT_INVALID']);
        expect(refused[0].errorMessage).toContain('scope');
        expect(dangerous.runs).toBe(before);

        const edited = await send(runner, confirmationResponse(request, { decision: 'edit', args: { scope: 'logs' } }));
        const response = responseOf(edited, 'c1')!;
        expect(response.response).toEqual({ result: { deleted: 'logs', confirmed: true }, argumentsEditedByUser: { scope: 'logs' } });
        expect(response.confirmation).toEqual({ decision: 'edit', by: 'user', args: { scope: 'logs' } });
        expect(edited.at(-1)!.text()).toBe('Cleaned the logs instead.');
        // The server ran the edited call, once, and recorded it; never the asked one.
        expect(dangerous.runs).toBe(before + 1);
        expect(dangerous.ranWith.at(-1)).toEqual({ scope: 'logs' });
        expect(await deletions()).toContain('logs');
        expect(await deletions()).not.toContain('photos');
      } finally {
        await runner.close();
      }
    });

    it('a rejection with a message answers the model TOOL_CALL_REJECTED quoting it; the server runs nothing', async () => {
      const { runner, request } = await paused('home', 'Left home alone.');
      const before = dangerous.runs;
      try {
        const answered = await send(runner, confirmationResponse(request, { decision: 'reject', message: 'Not my home directory.' }));
        const response = responseOf(answered, 'c1')!;
        expect(response).toMatchObject({ isError: true, response: { error: { code: 'TOOL_CALL_REJECTED' } } });
        expect((response.response.error as { message: string }).message).toContain('"Not my home directory."');
        expect(response.confirmation).toEqual({ decision: 'reject', by: 'user', message: 'Not my home directory.' });
        expect(answered.at(-1)!.text()).toBe('Left home alone.');
        expect(dangerous.runs).toBe(before);
        expect(await deletions()).not.toContain('home');
      } finally {
        await runner.close();
      }
    });

    it('a response instead is the call\'s result; the server runs nothing', async () => {
      const { runner, request } = await paused('cache', 'The cache was already empty.');
      const before = dangerous.runs;
      try {
        const answered = await send(runner, confirmationResponse(request, { decision: 'respond', result: { deleted: 'nothing', note: 'already empty' } }));
        const response = responseOf(answered, 'c1')!;
        expect(response.response).toEqual({ deleted: 'nothing', note: 'already empty' });
        expect(response.confirmation).toEqual({ decision: 'respond', by: 'user' });
        expect(dangerous.runs).toBe(before);
        expect(await deletions()).not.toContain('cache');
      } finally {
        await runner.close();
      }
    });
  });

  it.each([
    ['2025-11-25 (elicitation)', '2025-11-25'],
    ['2026-07-28 (input_required)', '2026-07-28'],
  ] as const)('over %s, a served tool\'s own form is not editable: an edit is refused up front and the request stays open; then an approval runs the call as asked, once', async (_label, protocol) => {
    const { runner } = agentRunner({ url: server.url! }, new InMemorySessionService(), [{ calls: [{ id: 'c1', name: 'deploy', args: { svc: 'api' } }] }, 'Deployed.'], protocol);
    try {
      const [request] = (await send(runner, user('deploy api'))).flatMap((event) => confirmationRequests(event));
      expect(request.hint).toBe('Where should api go?');
      expect(request.payloadSchema).toMatchObject({ properties: { env: { enum: ['staging', 'production'] } } });
      expect(request.editable).toBe(false);

      const edited = await send(runner, confirmationResponse(request, { decision: 'edit', args: { svc: 'db' }, payload: { env: 'production' } }));
      expect(edited.map((event) => event.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
      expect(edited[0].errorMessage).toContain('cannot be answered with "edit"');
      expect(deployed).toEqual([]);

      // The refusal stored nothing: the same request takes the person's next answer.
      const approved = await send(runner, confirmationResponse(request, { decision: 'approve', payload: { env: 'staging' } }));
      expect(responseOf(approved, 'c1')?.response).toEqual({ deployed: 'api', env: 'staging' });
      expect(deployed).toEqual([{ args: { svc: 'api' }, payload: { env: 'staging' } }]);
      expect(approved.at(-1)!.text()).toBe('Deployed.');
    } finally {
      deployed.length = 0;
      await runner.close();
    }
  });

  it('over 2026-07-28, a served tool\'s plain question asked with editable: false is a plain confirmation that is not editable: an edit is refused up front, an approval runs the call once', async () => {
    const { runner } = agentRunner({ url: server.url! }, new InMemorySessionService(), [{ calls: [{ id: 'c1', name: 'publish', args: { draft: 'd1' } }] }, 'Published.'], '2026-07-28');
    try {
      const [request] = (await send(runner, user('publish d1'))).flatMap((event) => confirmationRequests(event));
      expect(request.hint).toContain('Publish d1 as it stands?');
      expect(request.payloadSchema).toBeUndefined();
      expect(request.editable).toBe(false);
      const edited = await send(runner, confirmationResponse(request, { decision: 'edit', args: { draft: 'd2' } }));
      expect(edited.map((event) => event.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
      expect(published).toEqual([]);
      const approved = await send(runner, confirmationResponse(request, { decision: 'approve' }));
      expect(responseOf(approved, 'c1')?.response).toEqual({ published: 'd1' });
      expect(published).toEqual(['d1']);
    } finally {
      published.length = 0;
      await runner.close();
    }
  });

  it('over 2025-11-25, cancels an elicitation that arrives while another call of the same session is in flight (nobody can tell whose it is)', async () => {
    const toolset = new McpToolset({ transport: { url: server.url! }, timeoutMs: 20_000, protocol: '2025-11-25' });
    const before = dangerous.runs;
    try {
      const held = callThrough(toolset, 'hold', {});
      await hold.started;
      const gated = await callThrough(toolset, 'delete_everything', { scope: 'all' });
      // Not "the user rejected the call": nobody did.
      expect(errorCode(gated)).toBe('MCP_INPUT_CANCELLED');
      const error = gated.response.error as { message: string };
      expect(error.message).toContain('tool "delete_everything" did not finish: while 2 calls to this server were in flight, one of them asked the person a question');
      expect(error.message).toContain('McpToolset cancelled the question; nobody rejected the call. The server took the cancelled question as a rejection and did not run the tool.');
      expect(gated.response).toEqual({ error: { code: 'MCP_INPUT_CANCELLED', message: error.message, details: { callsInFlight: 2 } } });
      expect(JSON.stringify(gated.response)).not.toContain('TOOL_CALL_REJECTED');
      expect(dangerous.runs).toBe(before);
      hold.release();
      // The call that asked nothing gets its own result, untouched.
      expect((await held).response).toEqual({ held: true });
    } finally {
      await toolset.close();
    }
  });

  it('over 2025-11-25, two gated calls in one model response: each is a confirmation request or MCP_INPUT_CANCELLED, never a rejection nobody made; approved ones run once', async () => {
    const before = dangerous.runs;
    const { runner, model } = agentRunner({ url: server.url! }, new InMemorySessionService(), [
      { calls: [{ id: 'a', name: 'delete_everything', args: { scope: 'a' } }, { id: 'b', name: 'delete_everything', args: { scope: 'b' } }] },
      'Done.',
      'Done.',
    ], '2025-11-25');
    try {
      const first = await send(runner, user('clean a and b'));
      const requests = first.flatMap((event) => confirmationRequests(event));
      // Which calls pause depends on when each question arrives (alone, or beside the other call): either way, no call is answered as rejected.
      for (const id of ['a', 'b']) {
        const response = responseOf(first, id);
        const asked = requests.some((request) => request.originalFunctionCall.id === id);
        expect(asked || (response !== undefined && errorCode(response) === 'MCP_INPUT_CANCELLED')).toBe(true);
        expect(asked && response !== undefined).toBe(false);
      }
      expect(dangerous.runs).toBe(before);
      let answered: Event[] = [];
      for (const request of requests) answered = answered.concat(await send(runner, confirmationResponse(request, { decision: 'approve' })));
      for (const request of requests) expect(responseOf(answered, request.originalFunctionCall.id)?.response).toEqual({ deleted: (request.originalFunctionCall.args as { scope: string }).scope, confirmed: true });
      expect(dangerous.runs).toBe(before + requests.length);
      // What the model was shown: no TOOL_CALL_REJECTED anywhere.
      expect(JSON.stringify(model.requests)).not.toContain('TOOL_CALL_REJECTED');
    } finally {
      await runner.close();
    }
  });
});
