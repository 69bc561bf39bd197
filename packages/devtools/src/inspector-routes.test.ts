import { join } from 'node:path';
import { DevAgentHost } from './dev-agent-host';
import type { DevServer } from './start-dev-server';
import { startDevServer } from './start-dev-server';
import type { AppInfo, SessionSummary, WireInspection } from './protocol/api-types';
import { readSse } from './__fixtures__/read-sse';
import { startWireServer } from '@toolsmith/core/testing';

// The inspector's API (docs/devtools.md): each model call and the run's span tree, session titles and search.
const fixture = join(__dirname, '__fixtures__', 'desk-agent.ts');
const FAKE_KEY = 'sk-inspector-test-secret-0123456789';

describe('the dev server API: the inspector, session titles and search', () => {
  let server: DevServer;
  const savedKey = process.env.OPENAI_API_KEY;
  const api = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
  const run = async (sessionId: string, text: string) =>
    readSse(await fetch(`${server.url}/api/sessions/${sessionId}/run`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text }) }));

  beforeAll(async () => {
    process.env.OPENAI_API_KEY = FAKE_KEY; // in the process, as a developer's shell would have it: it must never reach the inspector
    server = await startDevServer({ host: await DevAgentHost.open({ module: fixture, store: 'memory' }), page: false });
  });
  afterAll(async () => {
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
    await server.close();
  });

  it('records each model call (request, response, tokens, latency) and the run as a span tree; no secret is kept', async () => {
    expect(((await (await api('/api/info')).json()) as AppInfo).inspector).toBe(true);
    await run('s-inspect', 'Look up order A-1001');
    const inspection = (await (await api('/api/sessions/s-inspect/inspector')).json()) as WireInspection;

    expect(inspection.modelCalls).toHaveLength(2); // the call to lookupOrder, then the answer
    const [first, second] = inspection.modelCalls;
    expect(first).toMatchObject({ model: 'desk-script', provider: 'scripted', tokens: { input: expect.any(Number), output: expect.any(Number) } });
    expect(first.latencyMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(first.request.messages)).toContain('Look up order A-1001');
    expect(first.request.systemInstructions).toEqual([{ type: 'text', content: expect.stringContaining('You run the order desk.') }]);
    expect(JSON.stringify(first.response)).toContain('lookupOrder');
    expect(JSON.stringify(second.request.messages)).toContain('"shipped"');
    expect(JSON.stringify(second.response)).toContain('Order A-1001 has shipped');

    // One trace: the invocation, the agent's turn, its two model calls and the tool call between them.
    const byId = new Map(inspection.spans.map((span) => [span.spanId, span]));
    const tree = inspection.spans.map((span) => [span.name, span.parentSpanId ? byId.get(span.parentSpanId)?.name : undefined]);
    expect(tree).toEqual([
      ['toolsmith.invocation', undefined],
      ['invoke_agent desk_agent', 'toolsmith.invocation'],
      ['chat desk-script', 'invoke_agent desk_agent'],
      ['execute_tool lookupOrder', 'invoke_agent desk_agent'],
      ['chat desk-script', 'invoke_agent desk_agent'],
    ]);
    expect(new Set(inspection.spans.map((span) => span.traceId)).size).toBe(1);

    const everything = JSON.stringify(inspection);
    for (const secret of [FAKE_KEY, server.token, 'Bearer ']) expect(everything).not.toContain(secret);
    // Another session's runs are not listed.
    expect(await (await api('/api/sessions/other/inspector')).json()).toEqual({ spans: [], modelCalls: [] });
  });

  it('a failed model call shows its error code; an approval\'s answer is a trace of its own in the same session', async () => {
    await run('s-fail', 'Please break the model');
    const failed = (await (await api('/api/sessions/s-fail/inspector')).json()) as WireInspection;
    expect(failed.modelCalls).toEqual([expect.objectContaining({ error: 'PROVIDER_ERROR' })]);
    expect(failed.spans.find((span) => span.name === 'chat desk-script')).toMatchObject({ status: 'error' });

    const paused = await run('s-pause', 'Refund 250 for order A-1002');
    const { requestId } = (paused.find((m) => m.event === 'end')!.data as { pending: { confirmations: Array<{ requestId: string }> } }).pending.confirmations[0];
    await readSse(
      await fetch(`${server.url}/api/sessions/s-pause/confirmations/${requestId}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: '{"decision":"approve"}' }),
    );
    const both = (await (await api('/api/sessions/s-pause/inspector')).json()) as WireInspection;
    expect(new Set(both.spans.map((span) => span.traceId)).size).toBe(2);
    expect(both.spans.find((span) => span.name === 'execute_tool refund' && span.attributes['toolsmith.tool.confirmation_requested'] === true)).toBeDefined();
    expect(both.modelCalls.map((call) => JSON.stringify(call.response))).toEqual([expect.stringContaining('"refund"'), expect.stringContaining('Refunded 250')]);
  });

  it('forgets a deleted session: its inspector is empty, also for a new session under its id', async () => {
    await run('s-gone', 'Look up order A-1001');
    expect(((await (await api('/api/sessions/s-gone/inspector')).json()) as WireInspection).modelCalls.length).toBeGreaterThan(0);
    const deleted = await fetch(`${server.url}/api/sessions/s-gone`, { method: 'DELETE', headers: { authorization: `Bearer ${server.token}` } });
    expect(deleted.status).toBe(204);
    expect(await (await api('/api/sessions/s-gone/inspector')).json()).toEqual({ spans: [], modelCalls: [] });
  });

  it('titles sessions by their first message, and ?q= searches titles and ids', async () => {
    await run('s-title', 'Export the customers please');
    const all = (await (await api('/api/sessions')).json()) as SessionSummary[];
    expect(all.find((s) => s.id === 's-title')?.title).toBe('Export the customers please');
    expect(all.find((s) => s.id === 's-inspect')?.title).toBe('Look up order A-1001');
    const found = (await (await api('/api/sessions?q=CUSTOMERS')).json()) as SessionSummary[];
    expect(found.map((s) => s.id)).toEqual(['s-title']);
    expect(((await (await api('/api/sessions?q=s-fail')).json()) as SessionSummary[]).map((s) => s.id)).toEqual(['s-fail']);
    expect(await (await api('/api/sessions?q=nothing-like-this')).json()).toEqual([]);
  });
});

describe('the inspector and a credential the user types in', () => {
  it('keeps no trace of the key: not in the spans, the model calls or the stored session', async () => {
    const server = await startDevServer({ host: await DevAgentHost.open({ module: join(__dirname, '__fixtures__', 'keyed-agent.ts'), store: 'memory' }), page: false });
    const key = 'wk-user-typed-key-9876543210';
    try {
      const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
      const post = (body: unknown) => fetch(`${server.url}/api/sessions/s-key/run`, { method: 'POST', headers, body: JSON.stringify(body) });
      const first = await readSse(await post({ text: 'Weather please' }));
      const requestId = (first.find((m) => m.event === 'end')!.data as { pending: { confirmations: Array<{ requestId: string }> } }).pending.confirmations[0].requestId;
      const answer = { role: 'user', parts: [{ functionResponse: { id: requestId, name: 'toolsmith_request_credential', response: { credential: { apiKey: key } } } }] };
      const resumed = await readSse(await post({ message: answer }));
      expect(JSON.stringify(resumed)).toContain('The forecast is sunny.');

      const inspection = await (await fetch(`${server.url}/api/sessions/s-key/inspector`, { headers })).text();
      expect(JSON.parse(inspection).modelCalls).toHaveLength(2);
      expect(inspection).toContain('keyLength'); // the tool ran with the key…
      expect(inspection).not.toContain(key); // …which the inspector never saw
      expect(await (await fetch(`${server.url}/api/sessions/s-key`, { headers })).text()).not.toContain(key);
    } finally {
      await server.close();
    }
  });
});

describe('the inspector of a module that exports its own Runner', () => {
  it('is unavailable: 404 NOT_FOUND with the reason', async () => {
    const server = await startDevServer({ host: await DevAgentHost.open({ module: join(__dirname, '__fixtures__', 'desk-runner.ts') }), page: false });
    try {
      const headers = { authorization: `Bearer ${server.token}` };
      expect(((await (await fetch(`${server.url}/api/info`, { headers })).json()) as AppInfo).inspector).toBe(false);
      const answer = await fetch(`${server.url}/api/sessions/x/inspector`, { headers });
      expect([answer.status, ((await answer.json()) as { error: { code: string } }).error.code]).toEqual([404, 'NOT_FOUND']);
    } finally {
      await server.close();
    }
  });
});

describe('the inspector of an agent on a provider adapter', () => {
  it('shows the body the adapter sent the provider on each attempt: a 429 with its code, then the retry that answered; no key', async () => {
    const chunk = (delta: object, finish: string | null = null) => ({ data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-wire', choices: [{ index: 0, delta, finish_reason: finish }] }) });
    const wire = await startWireServer((_request, index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '0' }, json: { error: { message: 'Rate limit reached for gpt-wire', type: 'requests', code: 'rate_limit_exceeded' } } }
        : { sse: [chunk({ role: 'assistant', content: 'Hi' }), chunk({}, 'stop'), { data: '[DONE]' }] },
    );
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    process.env.OPENAI_API_KEY = FAKE_KEY;
    process.env.OPENAI_BASE_URL = wire.url;
    const server = await startDevServer({ host: await DevAgentHost.open({ module: join(__dirname, '__fixtures__', 'openai-agent.ts'), store: 'memory' }), page: false });
    try {
      const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
      const events = await readSse(await fetch(`${server.url}/api/sessions/s-wire/run`, { method: 'POST', headers, body: JSON.stringify({ text: 'Say hi' }) }));
      expect(JSON.stringify(events)).toContain('Hi');
      const text = await (await fetch(`${server.url}/api/sessions/s-wire/inspector`, { headers })).text();
      const inspection = JSON.parse(text) as WireInspection;

      expect(wire.requests).toHaveLength(2);
      expect(wire.requests[0].headers.authorization).toBe(`Bearer ${FAKE_KEY}`); // the key went to the provider, in a header…
      expect(text).not.toContain(FAKE_KEY); // …and never into the inspector
      expect(text).not.toContain(server.token);
      expect(inspection.modelCalls).toHaveLength(1);
      const [call] = inspection.modelCalls;
      expect(call).toMatchObject({ model: 'gpt-wire', provider: 'openai' });
      // Each attempt's body is exactly what reached the provider, streaming flags included.
      expect(call.attempts).toEqual([
        { attempt: 1, latencyMs: expect.any(Number), body: wire.requests[0].body, error: 'RATE_LIMITED', errorMessage: expect.stringContaining('Rate limit reached for gpt-wire') },
        { attempt: 2, latencyMs: expect.any(Number), body: wire.requests[1].body },
      ]);
      expect(call.attempts[0].body).toMatchObject({ model: 'gpt-wire', stream: true, messages: [{ role: 'system', content: 'You answer in one word.' }, { role: 'user', content: 'Say hi' }] });
      expect(wire.handlerErrors).toEqual([]);
    } finally {
      await server.close();
      await wire.close();
      for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
