import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemorySessionService } from '@toolsmith/core';
import { type McpServerHandle, type ServeMcpOptions, serveMcp } from './serve-mcp';
import { createPublishTool, createServedTestTools } from './__fixtures__/served-tools';

const MODERN = '2026-07-28';
const KEY_A = 'a'.repeat(32);
const KEY_B = 'b'.repeat(32);
const users: Record<string, string> = { 'token-ann': 'ann', 'token-bob': 'bob' };

interface ToolAnswer {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string; params: { message: string; requestedSchema: { properties: Record<string, unknown> } } }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: Array<{ text?: string }>;
}

const serve = (extra: Partial<ServeMcpOptions> = {}) =>
  serveMcp({
    tools: Object.values(createServedTestTools()),
    transport: {
      http: {
        port: 0,
        authenticate: (request) => {
          const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
          return token && users[token] ? { userId: users[token] } : undefined;
        },
      },
    },
    requestStateKeys: [KEY_A],
    ...extra,
  });

/** A raw 2026-07-28 `tools/call` (envelope, headers), as a client that retries by hand sends it. */
function callTool(url: URL, token: string, params: Record<string, unknown>): Promise<ToolAnswer> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      },
    },
  };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': String(params.name),
  };
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        const parsed = JSON.parse(text) as { result?: ToolAnswer; error?: unknown };
        if (!parsed.result) reject(new Error(`no result: ${text}`));
        else resolve(parsed.result);
      });
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const approve = { confirm: { action: 'accept', content: { decision: 'approve' } } };
const errorCodeOf = (answer: ToolAnswer) => (answer.structuredContent?.error as { code?: string } | undefined)?.code;

describe('serveMcp on 2026-07-28: confirmation by input_required and a signed, single-use requestState', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server.close());

  /** Calls the gated tool and returns its input_required answer. */
  const ask = async (token = 'token-ann', args: Record<string, unknown> = { scope: 'all' }) => {
    const asked = await callTool(server.url!, token, { name: 'delete_everything', arguments: args });
    expect(asked.resultType).toBe('input_required');
    expect(typeof asked.requestState).toBe('string');
    return asked;
  };
  /** Ann's retry of the call she was `asked` about, with the form's accepted `content`, carrying `args` (the asked ones unless given). */
  const answerAsked = (asked: ToolAnswer, content: Record<string, unknown>, args: Record<string, unknown> = { scope: 'all' }) =>
    callTool(server.url!, 'token-ann', { name: 'delete_everything', arguments: args, inputResponses: { confirm: { action: 'accept', content } }, requestState: asked.requestState });

  it('asks with a form of the four decisions instead of running the tool', async () => {
    const asked = await ask();
    const form = asked.inputRequests!.confirm!;
    expect(form.method).toBe('elicitation/create');
    expect(form.params.message).toContain('delete_everything');
    expect(Object.keys(form.params.requestedSchema.properties)).toEqual(['decision', 'arguments', 'message', 'result']);
  });

  it('runs the tool once on the retry with the approval, and refuses the same answer again', async () => {
    const asked = await ask();
    const retry = { name: 'delete_everything', arguments: { scope: 'all' }, inputResponses: approve, requestState: asked.requestState };
    const ran = await callTool(server.url!, 'token-ann', retry);
    expect(ran.structuredContent).toEqual({ deleted: 'all', confirmed: true });
    const replayed = await callTool(server.url!, 'token-ann', retry);
    expect(errorCodeOf(replayed)).toBe('MCP_REQUEST_STATE_REPLAYED');
  });

  it('refuses an altered state, another user, other arguments and another tool, without using the state up', async () => {
    const asked = await ask();
    const state = asked.requestState!;
    const forged = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    const retry = (token: string, params: Record<string, unknown>) =>
      callTool(server.url!, token, { name: 'delete_everything', arguments: { scope: 'all' }, inputResponses: approve, requestState: state, ...params });
    const altered = await retry('token-ann', { requestState: forged });
    expect(errorCodeOf(altered)).toBe('MCP_REQUEST_STATE_INVALID');
    expect(altered.content![0]!.text).toContain('the tool did not run');
    const bob = await retry('token-bob', {});
    expect(errorCodeOf(bob)).toBe('MCP_REQUEST_STATE_MISMATCH');
    expect(bob.content![0]!.text).toContain('another user');
    const otherArgs = await retry('token-ann', { arguments: { scope: 'everything else' } });
    expect(errorCodeOf(otherArgs)).toBe('MCP_REQUEST_STATE_MISMATCH');
    expect(otherArgs.content![0]!.text).toContain('other arguments');
    expect(errorCodeOf(await retry('token-ann', { name: 'count_visits', arguments: { scope: 'all' } }))).toBe('MCP_REQUEST_STATE_MISMATCH');
    expect(errorCodeOf(await retry('token-ann', { requestState: 'not-a-state' }))).toBe('MCP_REQUEST_STATE_INVALID');
    // None of those used the state up: the rightful retry still runs.
    expect((await retry('token-ann', {})).structuredContent).toEqual({ deleted: 'all', confirmed: true });
  });

  it('refuses a retry without an answer with INVALID_CONFIRMATION_ANSWER', async () => {
    const asked = await ask();
    const answer = await callTool(server.url!, 'token-ann', { name: 'delete_everything', arguments: { scope: 'all' }, requestState: asked.requestState, inputResponses: {} });
    expect(errorCodeOf(answer)).toBe('INVALID_CONFIRMATION_ANSWER');
  });

  it('refuses a contradictory, empty or stray-field answer with INVALID_CONFIRMATION_ANSWER, and the state stays usable', async () => {
    const asked = await ask();
    const answer = (content: Record<string, unknown>) => answerAsked(asked, content);
    for (const content of [
      { decision: 'approve', confirmed: false },
      { decision: 'edit', arguments: '{"scope":"tmp"}', confirmed: false },
      { decision: 'reject', confirmed: true },
      { decision: 'approve', message: 'stray' },
      { decision: 'approve', result: '{"deleted":"nothing"}' },
      { decision: 'approve', arguments: '{"scope":"tmp"}' },
      { decision: 'reject', result: 'x' },
      {},
      { decision: 'respond' },
      { decision: 'respond', result: '' },
      { decision: 'respond', result: '   ' },
    ]) {
      const refused = await answer(content);
      expect([JSON.stringify(content), errorCodeOf(refused)]).toEqual([JSON.stringify(content), 'INVALID_CONFIRMATION_ANSWER']);
      if (content.decision === 'respond') expect(refused.content![0]!.text).toContain('"result" (the answer that stands in for the tool\'s result) is missing');
    }
    // The form's prefilled arguments left as they were, and empty text fields, go with any decision.
    expect((await answer({ decision: 'approve', arguments: '{ "scope": "all" }', message: '', result: '' })).structuredContent).toEqual({ deleted: 'all', confirmed: true });
  });

  it('reads null fields as left empty (a pydantic dump of the form writes them so)', async () => {
    const asked = await ask();
    expect((await answerAsked(asked, { decision: 'approve', arguments: null, message: null, result: null })).structuredContent).toEqual({ deleted: 'all', confirmed: true });
  });

  it('the form does not default to approving', async () => {
    const asked = await ask();
    const decision = asked.inputRequests!.confirm!.params.requestedSchema.properties.decision as Record<string, unknown>;
    expect(decision).not.toHaveProperty('default');
  });

  it('an edit whose arguments do not fit is refused without using the state up', async () => {
    const asked = await ask();
    const answer = (content: Record<string, unknown>) => answerAsked(asked, content);
    const bad = await answer({ decision: 'edit', arguments: '{"scope":7}' });
    expect(errorCodeOf(bad)).toBe('INVALID_ARGUMENTS');
    expect((await answer({ decision: 'edit', arguments: '{"scope":"tmp"}' })).structuredContent).toEqual({ deleted: 'tmp', confirmed: true });
  });

  it('a retry that carries the edited call runs it when its answer is that very edit; with another answer it is a mismatch', async () => {
    const asked = await ask();
    const retry = (args: Record<string, unknown>, content: Record<string, unknown>) => answerAsked(asked, content, args);
    expect(errorCodeOf(await retry({ scope: 'tmp' }, { decision: 'approve' }))).toBe('MCP_REQUEST_STATE_MISMATCH');
    expect(errorCodeOf(await retry({ scope: 'tmp' }, { decision: 'edit', arguments: '{"scope":"logs"}' }))).toBe('MCP_REQUEST_STATE_MISMATCH');
    expect((await retry({ scope: 'tmp' }, { decision: 'edit', arguments: '{"scope":"tmp"}' })).structuredContent).toEqual({ deleted: 'tmp', confirmed: true });
  });

  it('refuses an expired state', async () => {
    const quick = await serve({ confirmationTimeoutMs: 0 });
    try {
      const asked = await callTool(quick.url!, 'token-ann', { name: 'delete_everything', arguments: { scope: 'all' } });
      const retry = await callTool(quick.url!, 'token-ann', { name: 'delete_everything', arguments: { scope: 'all' }, inputResponses: approve, requestState: asked.requestState });
      expect(errorCodeOf(retry)).toBe('MCP_REQUEST_STATE_EXPIRED');
    } finally {
      await quick.close();
    }
  });

  it('a state signed with a key the server does not have is refused; a rotated-in key keeps the old one verifying', async () => {
    const other = await serve({ requestStateKeys: [KEY_B] });
    const rotated = await serve({ requestStateKeys: [KEY_B, KEY_A] });
    try {
      const asked = await ask();
      const retry = { name: 'delete_everything', arguments: { scope: 'all' }, inputResponses: approve, requestState: asked.requestState };
      expect(errorCodeOf(await callTool(other.url!, 'token-ann', retry))).toBe('MCP_REQUEST_STATE_INVALID');
      expect((await callTool(rotated.url!, 'token-ann', retry)).structuredContent).toEqual({ deleted: 'all', confirmed: true });
    } finally {
      await other.close();
      await rotated.close();
    }
  });

  it('refuses an empty key list, a short key and a key that is neither a string nor bytes: INVALID_MCP_REQUEST_STATE_KEY', async () => {
    for (const requestStateKeys of [[], ['short'], [42], [null]] as unknown as (string | Uint8Array)[][]) {
      await expect(serve({ requestStateKeys })).rejects.toMatchObject({ code: 'INVALID_MCP_REQUEST_STATE_KEY' });
    }
    const bytes = await serve({ requestStateKeys: [new Uint8Array(32).fill(7)] });
    await bytes.close();
  });

  it('two servers on one session store with one key accept an answer once between them', async () => {
    const sessionService = new InMemorySessionService();
    const first = await serve({ sessionService, name: 'shared' });
    const second = await serve({ sessionService, name: 'shared' });
    try {
      const asked = await callTool(first.url!, 'token-ann', { name: 'delete_everything', arguments: { scope: 'all' } });
      const retry = { name: 'delete_everything', arguments: { scope: 'all' }, inputResponses: approve, requestState: asked.requestState };
      expect((await callTool(second.url!, 'token-ann', retry)).structuredContent).toEqual({ deleted: 'all', confirmed: true });
      expect(errorCodeOf(await callTool(first.url!, 'token-ann', retry))).toBe('MCP_REQUEST_STATE_REPLAYED');
    } finally {
      await first.close();
      await second.close();
    }
  });

  describe('the four decisions, answered by the SDK v2 client (it retries by itself)', () => {
    const withAnswer = async (content: Record<string, string | boolean> | 'decline', args: Record<string, unknown> = { scope: 'all' }, applyDefaults = false) => {
      const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: { applyDefaults } } } });
      client.setRequestHandler('elicitation/create', async () => (content === 'decline' ? { action: 'decline' } : { action: 'accept', content }));
      await client.connect(new StreamableHTTPClientTransport(server.url!, { requestInit: { headers: { authorization: 'Bearer token-ann' } } }));
      try {
        return (await client.callTool({ name: 'delete_everything', arguments: args })) as ToolAnswer;
      } finally {
        await client.close();
      }
    };

    it('approve runs the tool', async () => {
      expect((await withAnswer({ decision: 'approve' })).structuredContent).toEqual({ deleted: 'all', confirmed: true });
      // The one-boolean form of 2025-era clients reads too.
      expect((await withAnswer({ confirmed: true })).structuredContent).toEqual({ deleted: 'all', confirmed: true });
      expect(errorCodeOf(await withAnswer({ confirmed: false }))).toBe('TOOL_CALL_REJECTED');
    });

    it('a client that fills in the form\'s defaults never turns a refusal or an empty answer into an approval', async () => {
      expect(errorCodeOf(await withAnswer({ confirmed: false }, { scope: 'all' }, true))).toBe('TOOL_CALL_REJECTED');
      expect(errorCodeOf(await withAnswer({}, { scope: 'all' }, true))).toBe('INVALID_CONFIRMATION_ANSWER');
      // The prefilled arguments it adds are the call's own: an approval still runs.
      expect((await withAnswer({ decision: 'approve' }, { scope: 'all' }, true)).structuredContent).toEqual({ deleted: 'all', confirmed: true });
    });

    it('edit runs it with the edited arguments, validated as any', async () => {
      expect((await withAnswer({ decision: 'edit', arguments: '{"scope":"tmp"}' })).structuredContent).toEqual({ deleted: 'tmp', confirmed: true });
      expect(errorCodeOf(await withAnswer({ decision: 'edit', arguments: '{"scope":7}' }))).toBe('INVALID_ARGUMENTS');
    });

    it('reject answers TOOL_CALL_REJECTED with the message, and decline rejects too', async () => {
      const rejected = await withAnswer({ decision: 'reject', message: 'not today' });
      expect(errorCodeOf(rejected)).toBe('TOOL_CALL_REJECTED');
      expect(rejected.content![0]!.text).toContain('not today');
      expect(errorCodeOf(await withAnswer('decline'))).toBe('TOOL_CALL_REJECTED');
    });

    it('respond answers with the result instead of running the tool', async () => {
      expect((await withAnswer({ decision: 'respond', result: '{"deleted":"nothing"}' })).structuredContent).toEqual({ deleted: 'nothing' });
    });
  });
});

describe('serveMcp on 2026-07-28: a tool that asks with editable: false', () => {
  let server: McpServerHandle;
  const published: string[] = [];
  beforeAll(async () => {
    const publish = createPublishTool(published);
    server = await serve({ tools: [publish] });
  });
  afterAll(() => server.close());

  it('offers three decisions (no edit, no arguments field) and refuses an edit, whatever arguments the retry carries, without using the state up', async () => {
    const asked = await callTool(server.url!, 'token-ann', { name: 'publish', arguments: { draft: 'd1' } });
    expect(asked.resultType).toBe('input_required');
    const form = asked.inputRequests!.confirm!.params.requestedSchema.properties;
    expect(Object.keys(form)).toEqual(['decision', 'message', 'result']);
    expect(form.decision).toMatchObject({ enum: ['approve', 'reject', 'respond'] });
    const retry = (content: Record<string, unknown>, args: Record<string, unknown>) =>
      callTool(server.url!, 'token-ann', { name: 'publish', arguments: args, inputResponses: { confirm: { action: 'accept', content } }, requestState: asked.requestState });
    for (const args of [{ draft: 'd1' }, { draft: 'd2' }]) {
      const edited = await retry({ decision: 'edit', arguments: JSON.stringify(args) }, args);
      expect(errorCodeOf(edited)).toBe('INVALID_CONFIRMATION_ANSWER');
      expect(edited.content![0]!.text).toContain('cannot be answered with "edit"');
    }
    expect(published).toEqual([]);
    expect((await retry({ decision: 'approve' }, { draft: 'd1' })).structuredContent).toEqual({ published: 'd1' });
    expect(published).toEqual(['d1']);
  });
});
