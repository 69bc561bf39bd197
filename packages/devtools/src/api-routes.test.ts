import { join } from 'node:path';
import { DevAgentHost } from './dev-agent-host';
import type { DevServer} from './start-dev-server';
import { startDevServer } from './start-dev-server';
import type { RunEnd, SessionDetail, SessionSummary, ToolInfo, ToolRunResult, WireEvent } from './protocol/api-types';
import { readSse } from './__fixtures__/read-sse';
import { sendRaw } from './__fixtures__/send-raw';
import { resetSlowReport, slowReportAborted, slowReportStarted } from './__fixtures__/desk-agent';

const fixture = join(__dirname, '__fixtures__', 'desk-agent.ts');

describe('the dev server API', () => {
  let server: DevServer;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.token}`, ...(init.headers as Record<string, string>) } });
  const post = (path: string, body: unknown) =>
    api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const run = async (path: string, body: unknown) => {
    const response = await post(path, body);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const messages = await readSse(response);
    const events = messages.filter((m) => m.event === 'event').map((m) => m.data as WireEvent);
    const end = messages.find((m) => m.event === 'end')?.data as RunEnd;
    return { events, end, messages };
  };

  beforeEach(async () => {
    const host = await DevAgentHost.open({ module: fixture, store: 'memory' });
    server = await startDevServer({ host, page: false });
  });
  afterEach(() => server.close());

  it('listens on 127.0.0.1 and says which app, agent, model and session store it serves', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await api('/api/info')).json()).toEqual({
      appName: 'desk_agent',
      agentName: 'desk_agent',
      userId: 'dev-user',
      model: 'scripted/desk-script',
      store: { kind: 'memory', durable: false, description: expect.stringContaining('in memory') },
      grants: true,
      inspector: true,
    });
  });

  it('creates, lists, reads and deletes sessions', async () => {
    const created = (await (await post('/api/sessions', { sessionId: 's-1' })).json()) as SessionDetail;
    expect(created).toMatchObject({ id: 's-1', events: [], pending: { confirmations: [], longRunning: [] } });
    const random = (await (await post('/api/sessions', {})).json()) as SessionDetail;
    const list = (await (await api('/api/sessions')).json()) as SessionSummary[];
    expect(list.map((s) => s.id).sort()).toEqual(['s-1', random.id].sort());
    expect((await api('/api/sessions/s-1', { method: 'DELETE' })).status).toBe(204);
    const missing = await api('/api/sessions/s-1');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'SESSION_NOT_FOUND', message: expect.stringContaining('s-1') } });
  });

  it('streams a run: partial text, the call with its arguments, its result, the state change, then the answer', async () => {
    const { events, end } = await run('/api/sessions/s-2/run', { text: 'Look up order A-1001' });
    const call = events.find((e) => e.content?.parts.some((p) => p.functionCall))!;
    expect(call.content!.parts[0].functionCall).toMatchObject({ name: 'lookupOrder', args: { orderId: 'A-1001' } });
    const result = events.find((e) => e.content?.parts.some((p) => p.functionResponse))!;
    expect(result.content!.parts[0].functionResponse).toMatchObject({ name: 'lookupOrder', response: { orderId: 'A-1001', status: 'shipped' } });
    expect(result.actions.stateDelta).toEqual({ lastOrder: 'A-1001' });
    const partial = events.filter((e) => e.partial).map((e) => e.content!.parts[0].text).join('');
    expect(events.filter((e) => e.partial).length).toBeGreaterThan(1);
    expect(partial).toBe('Order A-1001 has shipped; its total is 120 €.');
    expect(events[events.length - 1].partial).toBeUndefined();
    expect(events[events.length - 1].content).toEqual({ role: 'model', parts: [{ text: partial }] });
    expect(end).toEqual({ pending: { confirmations: [], longRunning: [] } });

    const stored = (await (await api('/api/sessions/s-2')).json()) as SessionDetail;
    expect(stored.state).toEqual({ lastOrder: 'A-1001' });
    expect(stored.events.some((e) => e.partial)).toBe(false);
    expect(stored.events.map((e) => e.author)).toEqual(['user', 'desk_agent', 'desk_agent', 'desk_agent']);
  });

  it('pauses for a confirmation, and an approval with a payload resumes the run to its answer', async () => {
    const { end } = await run('/api/sessions/s-3/run', { text: 'Refund 250 for order A-1002' });
    expect(end.pending.confirmations).toEqual([
      expect.objectContaining({
        requestId: expect.any(String),
        hint: 'Refund 250 € for order A-1002?',
        originalFunctionCall: expect.objectContaining({ name: 'refund', args: { orderId: 'A-1002', amount: 250 } }),
      }),
    ]);
    const { requestId } = end.pending.confirmations[0];
    const resumed = await run(`/api/sessions/s-3/confirmations/${requestId}`, { confirmed: true, payload: { approver: 'Ada' } });
    const last = resumed.events[resumed.events.length - 1];
    expect(last.content!.parts[0].text).toBe('Refunded 250 € for order A-1002 (approved by Ada).');
    expect(resumed.end.pending.confirmations).toEqual([]);

    const again = await post(`/api/sessions/s-3/confirmations/${requestId}`, { confirmed: true });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('NOT_PENDING');
  });

  it('an answer past the runner\'s limits (a payload or an update nested past maxDepth) is 400 with the runner\'s code, nothing stored, still pending', async () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 80; i++) deep = { deep };
    const { end } = await run('/api/sessions/s-d/run', { text: 'Refund 250 for order A-1002' });
    const { requestId } = end.pending.confirmations[0];
    const stored = ((await (await api('/api/sessions/s-d')).json()) as SessionDetail).events.length;
    const refused = await post(`/api/sessions/s-d/confirmations/${requestId}`, { confirmed: true, payload: deep });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('INVALID_MESSAGE');
    const exported = await run('/api/sessions/s-d/run', { text: 'Export the orders' });
    expect(exported.end.pending.longRunning).toHaveLength(1);
    const storedNow = ((await (await api('/api/sessions/s-d')).json()) as SessionDetail).events.length;
    const update = await post(`/api/sessions/s-d/long-running/${exported.end.pending.longRunning[0].id}`, { response: deep });
    expect(update.status).toBe(400);
    expect(((await update.json()) as { error: { code: string } }).error.code).toBe('INVALID_MESSAGE');
    const after = (await (await api('/api/sessions/s-d')).json()) as SessionDetail;
    expect(after.events.length).toBe(storedNow);
    expect(after.pending.longRunning).toHaveLength(1);
    expect(storedNow).toBeGreaterThan(stored);
    // Both text and message: refused, not one of them silently dropped.
    const both = await post('/api/sessions/s-d/run', { text: 'hi', message: { role: 'user', parts: [{ text: 'other' }] } });
    expect([both.status, ((await both.json()) as { error: { code: string } }).error.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('a denial reaches the model as a rejected call', async () => {
    const { end } = await run('/api/sessions/s-4/run', { text: 'Refund 900 for order A-1003' });
    const resumed = await run(`/api/sessions/s-4/confirmations/${end.pending.confirmations[0].requestId}`, { confirmed: false });
    const rejected = resumed.events.find((e) => e.content?.parts.some((p) => p.functionResponse?.name === 'refund'))!;
    expect(rejected.content!.parts[0].functionResponse).toMatchObject({ isError: true, response: { error: { code: 'TOOL_CALL_REJECTED' } } });
    expect(resumed.events[resumed.events.length - 1].content!.parts[0].text).toBe('The refund was not approved, so nothing was refunded.');
  });

  it('takes intermediate and final updates of a long-running call', async () => {
    const { end } = await run('/api/sessions/s-5/run', { text: 'Export the orders' });
    expect(end.pending.longRunning).toEqual([{ id: expect.any(String), name: 'startExport', agentName: 'desk_agent' }]);
    const callId = end.pending.longRunning[0].id;
    const progress = await run(`/api/sessions/s-5/long-running/${callId}`, { response: { status: 'half done' }, willContinue: true });
    expect(progress.end.pending.longRunning.map((c) => c.id)).toEqual([callId]);
    const done = await run(`/api/sessions/s-5/long-running/${callId}`, { response: { status: 'done' } });
    expect(done.end.pending.longRunning).toEqual([]);
    expect(done.events[done.events.length - 1].content!.parts[0].text).toBe('The export is done.');
  });

  it('sends an update with a question: a bad question is refused with nothing stored; the request is pending (remember refused) and its answer runs the tool again', async () => {
    const { end } = await run('/api/sessions/s-q/run', { text: 'Export the orders' });
    const callId = end.pending.longRunning[0].id;
    const stored = async () => ((await (await api('/api/sessions/s-q')).json()) as { events: unknown[] }).events;
    const before = await stored();

    const bad = await run(`/api/sessions/s-q/long-running/${callId}`, { response: { status: 'blocked' }, willContinue: true, question: { hint: 12 } });
    expect(bad.events).toEqual([expect.objectContaining({ errorCode: 'INVALID_FUNCTION_RESPONSE', errorMessage: expect.stringContaining('"question.hint" must be text') })]);
    expect(await stored()).toEqual(before);

    const FORM = { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] };
    const asked = await run(`/api/sessions/s-q/long-running/${callId}`, { response: { status: 'blocked', rows: 12 }, willContinue: true, question: { hint: 'Keep the 12 locked rows?', payloadSchema: FORM } });
    expect(asked.end.pending.confirmations).toEqual([
      expect.objectContaining({ originalFunctionCall: expect.objectContaining({ id: callId, name: 'startExport' }), hint: 'Keep the 12 locked rows?', askedBy: 'tool' }),
    ]);
    expect(asked.end.pending.longRunning.map((c) => c.id)).toEqual([callId]);
    const { requestId } = asked.end.pending.confirmations[0];
    const paused = await stored();

    // The tool asked, so "always allow" does not apply: refused up front with the runner's code, nothing stored.
    const remembered = await post(`/api/sessions/s-q/confirmations/${requestId}`, { decision: 'approve', payload: { keep: true }, remember: { scope: 'session' } });
    expect([remembered.status, await remembered.json()]).toEqual([400, { error: { code: 'INVALID_CONFIRMATION_ANSWER', message: expect.stringContaining('"remember" (always allow) does not apply') } }]);
    expect(await stored()).toEqual(paused);

    // The desk's startExport runs again with the answer, and its result is the next update.
    const answered = await run(`/api/sessions/s-q/confirmations/${requestId}`, { decision: 'approve', payload: { keep: true } });
    expect(answered.events[0].content!.parts[0].functionResponse).toMatchObject({ id: callId, response: { status: 'running', table: 'orders', answer: { keep: true } }, willContinue: true });
    expect(answered.events[answered.events.length - 1].content!.parts[0].text).toBe('The export is running.');
    expect(answered.end.pending).toEqual({ confirmations: [], longRunning: [expect.objectContaining({ id: callId })] });
  });

  it('streams a failed model call as an error event with its code', async () => {
    const { events, end } = await run('/api/sessions/s-7/run', { text: 'Please break the model' });
    expect(events).toEqual([expect.objectContaining({ errorCode: 'PROVIDER_ERROR', errorMessage: expect.stringContaining('The desk model is down.') })]);
    expect(end).toEqual({ pending: { confirmations: [], longRunning: [] } });
  });

  it('a client that closes the stream aborts the run: the tool sees its signal abort', async () => {
    const client = new AbortController();
    const response = await api('/api/sessions/s-8/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Make a slow report' }),
      signal: client.signal,
    });
    expect(response.status).toBe(200);
    await slowReportStarted;
    client.abort();
    await expect(slowReportAborted).resolves.toBeDefined();
  });

  it('deleting a session stops its run under way first: the tool sees its signal abort, then the session is gone', async () => {
    resetSlowReport();
    const streamed = run('/api/sessions/s-del/run', { text: 'Make a slow report' });
    await slowReportStarted;
    expect((await api('/api/sessions/s-del', { method: 'DELETE' })).status).toBe(204);
    // By the time DELETE answered, the run was stopped and had ended: the tool saw the abort, nothing is left.
    await expect(slowReportAborted).resolves.toEqual(expect.objectContaining({ message: 'Session "s-del" was deleted.' }));
    const { messages } = await streamed;
    expect(messages.map((m) => m.event)).toContain('end');
    expect((await api('/api/sessions/s-del')).status).toBe(404);
  });

  it('lists the tools with descriptions and schemas', async () => {
    const tools = (await (await api('/api/tools')).json()) as ToolInfo[];
    expect(tools.map((t) => [t.name, t.requiresConfirmation, t.isLongRunning])).toEqual([
      ['lookupOrder', false, false],
      ['refund', true, false],
      ['slowReport', false, false],
      ['startExport', false, true],
      ['cancelOrder', false, false],
    ]);
    expect(tools[1]).toMatchObject({
      description: expect.stringContaining('Refunds an amount'),
      parameters: { type: 'object', properties: { amount: { type: 'number', minimum: 1 } }, required: ['orderId', 'amount'] },
      agents: ['desk_agent'],
    });
  });

  it('runs one tool alone with the validation, gate and errors of a run', async () => {
    const runTool = async (name: string, body: unknown) => (await (await post(`/api/tools/${name}/run`, body)).json()) as ToolRunResult;

    const ok = await runTool('lookupOrder', { args: { orderId: 'A-7' } });
    expect(ok).toMatchObject({ isError: false, response: { orderId: 'A-7', status: 'shipped' }, stateDelta: { lastOrder: 'A-7' } });
    expect(ok.durationMs).toBeGreaterThanOrEqual(0);

    const invalid = await runTool('refund', { args: { orderId: 'A-8', amount: 0 } });
    expect(invalid).toMatchObject({ isError: true, errorCode: 'INVALID_ARGUMENTS' });
    expect(JSON.stringify(invalid.response)).toContain('amount');

    const gated = await runTool('refund', { args: { orderId: 'A-8', amount: 500 } });
    expect(gated).toMatchObject({ confirmationRequested: true });
    const approved = await runTool('refund', { args: '{"orderId":"A-8","amount":500}', confirmation: { confirmed: true, payload: { approver: 'Bo' } } });
    expect(approved).toMatchObject({ isError: false, response: { status: 'refunded', approvedBy: 'Bo' } });

    const unknown = await runTool('nope', { args: {} });
    expect(unknown).toMatchObject({ isError: true, errorCode: 'TOOL_NOT_FOUND' });
  });

  it('does not run a message again when the client sends it again with the same messageId: the stream repeats what it produced', async () => {
    const first = await run('/api/sessions/s-9/run', { text: 'Look up order A-1001', messageId: 'msg-1' });
    const storedBefore = ((await (await api('/api/sessions/s-9')).json()) as SessionDetail).events;
    const again = await run('/api/sessions/s-9/run', { text: 'Look up order A-1001', messageId: 'msg-1' });

    const complete = (events: typeof first.events) => events.filter((e) => !e.partial).map((e) => e.id);
    expect(complete(again.events)).toEqual(complete(first.events));
    expect(again.events.some((e) => e.partial)).toBe(false);
    expect(((await (await api('/api/sessions/s-9')).json()) as SessionDetail).events).toEqual(storedBefore);
    const bad = await post('/api/sessions/s-9/run', { text: 'x', messageId: 7 });
    expect(bad.status).toBe(400);
  });

  it('refuses malformed requests with a code', async () => {
    const bad = await post('/api/sessions/s-6/run', { nothing: true });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('BAD_REQUEST');
    const notJson = await api('/api/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe('MALFORMED_JSON');
    const notObject = await post('/api/sessions', [1]);
    expect(((await notObject.json()) as { error: { code: string } }).error.code).toBe('BAD_REQUEST');
    expect((await api('/api/nothing')).status).toBe(404);
    const malformed = await api('/api/%ZZ');
    expect([malformed.status, ((await malformed.json()) as { error: { code: string } }).error.code]).toEqual([400, 'MALFORMED_URL']);
    const noCases = await post('/api/evals/run', { caseIds: [] });
    expect(noCases.status).toBe(400);
    expect(((await noCases.json()) as { error: { code: string; message: string } }).error).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('caseIds is empty') });
    expect((await api('/')).status).toBe(404); // `toolsmith api`: no page
  });

  it('refuses a body that is not JSON on every route, those that read none (GET, DELETE) included: 415, nothing done', async () => {
    expect((await post('/api/sessions', { sessionId: 's-7' })).status).toBe(201);
    const deleted = await api('/api/sessions/s-7', { method: 'DELETE', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect([deleted.status, ((await deleted.json()) as { error: { code: string } }).error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const read = await sendRaw(server, { method: 'GET', path: '/api/sessions', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' }, body: 'a=1' });
    expect([read.status, read.text]).toEqual([415, expect.stringContaining('UNSUPPORTED_MEDIA_TYPE')]);
    expect((await api('/api/sessions/s-7')).status).toBe(200); // still there
    // A JSON body, or none, on a route that reads none is as before.
    expect((await api('/api/sessions/s-7', { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(204);
  });

  it('checks a JSON body on a route that reads none as any body (malformed 400, not an object 400, over 1 MiB 413): nothing done', async () => {
    expect((await post('/api/sessions', { sessionId: 's-8' })).status).toBe(201);
    const code = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];
    const json = { 'content-type': 'application/json' };
    expect(await code(await api('/api/sessions/s-8', { method: 'DELETE', headers: json, body: '{' }))).toEqual([400, 'MALFORMED_JSON']);
    expect(await code(await api('/api/sessions/s-8', { method: 'DELETE', headers: json, body: '[1]' }))).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await api('/api/sessions/s-8', { method: 'DELETE', headers: json, body: `"${'x'.repeat(1024 * 1024)}"` }))).toEqual([413, 'BODY_TOO_LARGE']);
    const read = await sendRaw(server, { method: 'GET', path: '/api/sessions', headers: { ...json, 'content-length': '1' }, body: '{' });
    expect([read.status, read.text]).toEqual([400, expect.stringContaining('MALFORMED_JSON')]);
    expect((await api('/api/sessions/s-8')).status).toBe(200); // still there
  });

  it('refuses ids no run could take (a control character, a lone surrogate, over 256 characters) with 400 before any store sees them', async () => {
    const code = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];
    expect(await code(await post('/api/sessions', { sessionId: 'c\u0000d' }))).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await post('/api/sessions', { sessionId: 'x'.repeat(257) }))).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await api('/api/sessions/a%00b'))).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await api('/api/sessions/a%ED%A0%80b'))).toEqual([400, 'MALFORMED_URL']); // not UTF-8: the guard's
    expect(await code(await api('/api/sessions/a%00b', { method: 'DELETE' }))).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await post('/api/sessions/a%0Ab/run', { text: 'hi' }))).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await post('/api/tools/lookupOrder/run', { args: { orderId: 'A-1' }, sessionId: 's\u007f' }))).toEqual([400, 'BAD_REQUEST']);
    expect((await (await api('/api/sessions')).json()) as SessionSummary[]).toEqual([]);
    // A message id the runner would refuse: 400 before anything streams, as a refused message is.
    expect(await code(await post('/api/sessions/s-m/run', { text: 'hi', messageId: 'a\u0000b' }))).toEqual([400, 'INVALID_MESSAGE']);
    // A longer id in a path is only read (a session stored before ids were limited can be opened and deleted).
    expect(await code(await api(`/api/sessions/${'x'.repeat(300)}`))).toEqual([404, 'SESSION_NOT_FOUND']);
    // The longest id is taken.
    expect((await post('/api/sessions', { sessionId: 'x'.repeat(256) })).status).toBe(201);
  });
});
