import { join } from 'node:path';
import { DevAgentHost } from './dev-agent-host';
import type { DevServer } from './start-dev-server';
import { startDevServer } from './start-dev-server';
import type { AppInfo, RunEnd, SessionDetail, WireEvent, WireGrant } from './protocol/api-types';
import { readSse } from './__fixtures__/read-sse';
import { ledger } from './__fixtures__/desk-agent';

// The four decisions and remembered grants through the dev server's API (docs/devtools.md), on the
// offline desk agent: a refund above 100 € waits for approval.
const fixture = join(__dirname, '__fixtures__', 'desk-agent.ts');

describe('the dev server API: the four decisions and grants', () => {
  let server: DevServer;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.token}`, ...(init.headers as Record<string, string>) } });
  const post = (path: string, body: unknown) => api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const run = async (path: string, body: unknown) => {
    const messages = await readSse(await post(path, body));
    return { events: messages.filter((m) => m.event === 'event').map((m) => m.data as WireEvent).filter((e) => !e.partial), end: messages.find((m) => m.event === 'end')!.data as RunEnd };
  };
  const session = async (id: string) => (await (await api(`/api/sessions/${id}`)).json()) as SessionDetail;
  /** Runs a refund request and returns the id of the confirmation it waits for. */
  const refund = async (sessionId: string, amount: number, orderId: string) => {
    const { end } = await run(`/api/sessions/${sessionId}/run`, { text: `Refund ${amount} for order ${orderId}` });
    expect(end.pending.confirmations).toHaveLength(1);
    return end.pending.confirmations[0].requestId;
  };
  const answer = (sessionId: string, requestId: string, body: unknown) => run(`/api/sessions/${sessionId}/confirmations/${requestId}`, body);
  const refundResponse = (events: WireEvent[]) => events.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionResponse?.name === 'refund')!.functionResponse!;
  const lastText = (events: WireEvent[]) => events[events.length - 1].content?.parts[0].text;

  beforeEach(async () => {
    ledger.refunds.length = 0;
    server = await startDevServer({ host: await DevAgentHost.open({ module: fixture, store: 'memory' }), page: false });
  });
  afterEach(() => server.close());

  it('edit: arguments the schema refuses are refused with every problem and nothing stored; valid ones run, and the model is shown the edit', async () => {
    const requestId = await refund('s-edit', 250, 'A-1002');
    const before = (await session('s-edit')).events;

    const refused = await answer('s-edit', requestId, { decision: 'edit', args: { orderId: 'A-1002', amount: 0, extra: 1 } });
    expect(refused.events).toEqual([expect.objectContaining({ errorCode: 'CONFIRMATION_EDIT_INVALID' })]);
    expect(refused.events[0].errorMessage).toMatch(/amount/);
    expect(refused.end.pending.confirmations.map((c) => c.requestId)).toEqual([requestId]);
    expect((await session('s-edit')).events).toEqual(before);
    expect(ledger.refunds).toEqual([]);

    const edited = await answer('s-edit', requestId, { decision: 'edit', args: { orderId: 'A-1002', amount: 100 } });
    expect(ledger.refunds).toEqual([{ orderId: 'A-1002', amount: 100 }]);
    expect(refundResponse(edited.events)).toMatchObject({
      response: { result: { status: 'refunded', amount: 100 }, argumentsEditedByUser: { orderId: 'A-1002', amount: 100 } },
      confirmation: { decision: 'edit', by: 'user', args: { orderId: 'A-1002', amount: 100 } },
    });
    expect(lastText(edited.events)).toBe('Refunded 100 € for order A-1002 with the amount you set.');
    expect(edited.end.pending.confirmations).toEqual([]);
  });

  it('reject with a message: the model receives the message; respond instead: the answer is the result and the tool does not run', async () => {
    const rejectId = await refund('s-reject', 900, 'A-1003');
    const rejected = await answer('s-reject', rejectId, { decision: 'reject', message: 'Only 100, please.' });
    expect(refundResponse(rejected.events)).toMatchObject({ isError: true, response: { error: { code: 'TOOL_CALL_REJECTED' } }, confirmation: { decision: 'reject', by: 'user', message: 'Only 100, please.' } });
    expect(lastText(rejected.events)).toBe('The refund was not approved; the manager said "Only 100, please.".');

    const respondId = await refund('s-respond', 400, 'A-1004');
    const responded = await answer('s-respond', respondId, { decision: 'respond', result: { status: 'refunded by phone' } });
    expect(refundResponse(responded.events)).toMatchObject({ response: { status: 'refunded by phone' }, confirmation: { decision: 'respond', by: 'user' } });
    expect(lastText(responded.events)).toBe('The refund\'s result: {"status":"refunded by phone"}.');
    expect(ledger.refunds).toEqual([]);
  });

  it('"always allow" creates a grant: later calls it covers run without asking and are marked; GET lists it, DELETE revokes it and the next call asks again', async () => {
    expect(((await (await api('/api/info')).json()) as AppInfo).grants).toBe(true);
    expect(await (await api('/api/grants')).json()).toEqual([]);

    const expiresAt = Date.now() + 3_600_000;
    const first = await refund('s-grant', 250, 'A-1005');
    const approved = await answer('s-grant', first, { decision: 'approve', remember: { scope: 'session', expiresAt } });
    const grantId = refundResponse(approved.events).confirmation?.grantId;
    expect(refundResponse(approved.events).confirmation).toEqual({ decision: 'approve', by: 'user', grantId: expect.stringMatching(/^grant-/) });
    const grants = (await (await api('/api/grants')).json()) as WireGrant[];
    expect(grants).toEqual([
      expect.objectContaining({ id: grantId, appName: 'desk_agent', scope: 'session', userId: 'dev-user', sessionId: 's-grant', toolName: 'refund', expiresAt, schemaHash: expect.any(String) }),
    ]);

    // Same session: granted, no request; another session: the grant's scope does not cover it.
    const granted = await run('/api/sessions/s-grant/run', { text: 'Refund 300 for order A-1006' });
    expect(granted.end.pending.confirmations).toEqual([]);
    expect(refundResponse(granted.events).confirmation).toEqual({ decision: 'approve', by: 'grant', grantId });
    await refund('s-other', 300, 'A-1007');

    expect((await api(`/api/grants/${grantId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await api('/api/grants')).json()).toEqual([]);
    await refund('s-grant', 310, 'A-1008');
    const gone = await api(`/api/grants/${grantId}`, { method: 'DELETE' });
    expect([gone.status, ((await gone.json()) as { error: { code: string } }).error.code]).toEqual([404, 'NOT_FOUND']);
    expect(ledger.refunds.map((r) => r.orderId)).toEqual(['A-1005', 'A-1006']);
  });

  it('deleting a session (DELETE /api/sessions/:id) revokes its session grants; a new session under its id asks again', async () => {
    const first = await refund('s-gone', 250, 'A-1101');
    const pending = (await session('s-gone')).pending.confirmations;
    expect(pending.map((c) => c.askedBy)).toEqual(['runner']); // the tool's rule asked: "always allow" applies
    await answer('s-gone', first, { decision: 'approve', remember: { scope: 'session' } });
    await answer('s-keep', await refund('s-keep', 250, 'A-1102'), { decision: 'approve', remember: { scope: 'session' } });
    expect(((await (await api('/api/grants')).json()) as WireGrant[]).map((g) => g.sessionId)).toEqual(['s-gone', 's-keep']);

    expect((await api('/api/sessions/s-gone', { method: 'DELETE' })).status).toBe(204);

    expect(((await (await api('/api/grants')).json()) as WireGrant[]).map((g) => g.sessionId)).toEqual(['s-keep']);
    await refund('s-gone', 260, 'A-1103'); // asks again
    expect(ledger.refunds.map((r) => r.orderId)).toEqual(['A-1101', 'A-1102']);
  });

  it('an answer whose originalFunctionCall is not the pending call (id, tool name or arguments) is refused with 400 CONFIRMATION_MISMATCH, nothing stored; the matching one runs', async () => {
    const requestId = await refund('s-mismatch', 250, 'A-1201');
    const [pending] = (await session('s-mismatch')).pending.confirmations;
    const call = pending.originalFunctionCall;
    const before = (await session('s-mismatch')).events;
    for (const originalFunctionCall of [
      { ...call, id: 'call-forged' },
      { ...call, name: 'lookupOrder' },
      { ...call, args: { orderId: 'A-1201', amount: 1 } },
      { ...call, args: JSON.stringify({ orderId: 'A-1201', amount: 9999 }) },
      'not a call',
    ]) {
      const refused = await post(`/api/sessions/s-mismatch/confirmations/${requestId}`, { decision: 'approve', originalFunctionCall });
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect([JSON.stringify(originalFunctionCall), refused.status, error.code]).toEqual([JSON.stringify(originalFunctionCall), 400, 'CONFIRMATION_MISMATCH']);
      expect(error.message).toContain(`differs from the pending call "${call.id}" to tool "refund"`);
    }
    expect((await session('s-mismatch')).events).toEqual(before);
    expect((await session('s-mismatch')).pending.confirmations.map((c) => c.requestId)).toEqual([requestId]);
    expect(ledger.refunds).toEqual([]);

    // The same call, its arguments as JSON text in another key order: equal by value, so it runs.
    const approved = await answer('s-mismatch', requestId, { decision: 'approve', originalFunctionCall: { ...call, args: JSON.stringify({ amount: 250, orderId: 'A-1201' }) } });
    expect(refundResponse(approved.events).response).toMatchObject({ status: 'refunded', amount: 250 });
    expect(ledger.refunds).toEqual([{ orderId: 'A-1201', amount: 250 }]);
  });

  it('a request the tool asked itself (an update\'s question, askedBy "tool"): "remember", "edit" and a payload outside its form are refused with 400 INVALID_CONFIRMATION_ANSWER up front, nothing stored', async () => {
    const { end } = await run('/api/sessions/s-asked/run', { text: 'Export the orders' });
    const callId = end.pending.longRunning[0].id;
    const FORM = { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] };
    const asked = await run(`/api/sessions/s-asked/long-running/${callId}`, { response: { status: 'blocked', rows: 12 }, willContinue: true, question: { hint: 'Keep the 12 locked rows?', payloadSchema: FORM } });
    const [request] = asked.end.pending.confirmations;
    expect(request).toMatchObject({ askedBy: 'tool', hint: 'Keep the 12 locked rows?', payloadSchema: FORM, update: { response: { status: 'blocked', rows: 12 }, willContinue: true } });
    const before = (await session('s-asked')).events;
    for (const [body, problem] of [
      [{ decision: 'approve', payload: { keep: true }, remember: { scope: 'session' } }, '"remember" (always allow) does not apply to this request'],
      [{ decision: 'approve', payload: { keep: true }, remember: { scope: 'app' } }, '"remember" (always allow) does not apply to this request'],
      [{ decision: 'edit', args: { table: 'orders' }, payload: { keep: true } }, 'an update\'s question cannot be answered with "edit"'],
      [{ decision: 'approve', payload: { keep: 'yes' } }, 'does not fill in the request\'s form'],
      [{ decision: 'approve' }, 'its "payload" must be the filled-in form'],
    ] as const) {
      const refused = await post(`/api/sessions/s-asked/confirmations/${request.requestId}`, body);
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect([JSON.stringify(body), refused.status, error.code]).toEqual([JSON.stringify(body), 400, 'INVALID_CONFIRMATION_ANSWER']);
      expect(error.message).toContain(problem);
    }
    expect((await session('s-asked')).events).toEqual(before);
    expect((await session('s-asked')).pending.confirmations.map((c) => c.requestId)).toEqual([request.requestId]);
    expect(await (await api('/api/grants')).json()).toEqual([]);

    const answered = await answer('s-asked', request.requestId, { decision: 'approve', payload: { keep: true } });
    expect(answered.events[0].content!.parts[0].functionResponse).toMatchObject({ id: callId, willContinue: true });
    expect(answered.end.pending.confirmations).toEqual([]);
  });

  it('a request with editable: false carries it in pending.confirmations; an edit is refused with 400 INVALID_CONFIRMATION_ANSWER up front, nothing stored, and an approval runs the call as it was made', async () => {
    const { end } = await run('/api/sessions/s-sealed/run', { text: 'Cancel order A-1701' });
    const [request] = end.pending.confirmations;
    expect(request).toMatchObject({ originalFunctionCall: { name: 'cancelOrder', args: { orderId: 'A-1701' } }, askedBy: 'tool', editable: false, hint: 'Cancel order A-1701 as it was placed?' });
    const before = (await session('s-sealed')).events;
    const refused = await post(`/api/sessions/s-sealed/confirmations/${request.requestId}`, { decision: 'edit', args: { orderId: 'A-1702' } });
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect([refused.status, error.code]).toEqual([400, 'INVALID_CONFIRMATION_ANSWER']);
    expect(error.message).toContain('this request cannot be answered with "edit" ("editable": false)');
    expect((await session('s-sealed')).events).toEqual(before);
    expect((await session('s-sealed')).pending.confirmations).toEqual([request]);

    const approved = await answer('s-sealed', request.requestId, { decision: 'approve' });
    expect(lastText(approved.events)).toBe('Order A-1701 is cancelled.');
    expect(ledger.cancelled).toContain('A-1701');
    expect(ledger.cancelled).not.toContain('A-1702');
    // A request that takes an edit does not carry the flag.
    expect((await run('/api/sessions/s-sealed/run', { text: 'Refund 250 for order A-1703' })).end.pending.confirmations[0]).not.toHaveProperty('editable');
  });

  it('refuses malformed answers with 400 and a code before anything is stored; the request stays open', async () => {
    const requestId = await refund('s-bad', 250, 'A-1009');
    const before = (await session('s-bad')).events;
    for (const body of [
      {},
      { decision: 'maybe' },
      { confirmed: 'yes' },
      { decision: 'edit' },
      { decision: 'edit', args: [1] },
      { decision: 'approve', args: { amount: 1 } },
      { decision: 'reject', message: 5 },
      { decision: 'respond' },
      { decision: 'reject', confirmed: true },
      { decision: 'approve', remember: { scope: 'world' } },
      { decision: 'approve', remember: { scope: 'app', expiresAt: 'tomorrow' } },
      { decision: 'reject', remember: { scope: 'app' } },
    ]) {
      const refused = await post(`/api/sessions/s-bad/confirmations/${requestId}`, body);
      expect([JSON.stringify(body), refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([JSON.stringify(body), 400, 'INVALID_CONFIRMATION_ANSWER']);
    }
    const unknown = await post('/api/sessions/s-bad/confirmations/confirm-forged', { decision: 'approve' });
    expect(unknown.status).toBe(409);
    expect((await session('s-bad')).events).toEqual(before);
    expect((await session('s-bad')).pending.confirmations.map((c) => c.requestId)).toEqual([requestId]);
    expect(await (await api('/api/grants')).json()).toEqual([]);
    expect(ledger.refunds).toEqual([]);
  });
});

describe('the dev server API of a module that exports a Runner without a grant service', () => {
  it('says grants are unavailable, and refuses "always allow" with 400 before anything is stored', async () => {
    const server = await startDevServer({ host: await DevAgentHost.open({ module: join(__dirname, '__fixtures__', 'desk-runner.ts') }), page: false });
    try {
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
      expect(((await (await api('/api/info')).json()) as AppInfo).grants).toBe(false);
      const list = await api('/api/grants');
      expect([list.status, ((await list.json()) as { error: { code: string } }).error.code]).toEqual([404, 'NOT_FOUND']);
      const messages = await readSse(await api('/api/sessions/no-grants/run', { method: 'POST', body: JSON.stringify({ text: 'Refund 250 for order A-1010' }) }));
      const { requestId } = (messages.find((m) => m.event === 'end')!.data as RunEnd).pending.confirmations[0];
      const refused = await api(`/api/sessions/no-grants/confirmations/${requestId}`, { method: 'POST', body: JSON.stringify({ decision: 'approve', remember: { scope: 'app' } }) });
      expect([refused.status, ((await refused.json()) as { error: { message: string } }).error.message]).toEqual([400, expect.stringContaining('export `grantService`')]);
    } finally {
      await server.close();
    }
  });
});
