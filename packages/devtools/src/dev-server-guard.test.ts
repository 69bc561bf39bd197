import { join } from 'node:path';
import { DevAgentHost } from './dev-agent-host';
import type { DevServer } from './start-dev-server';
import { startDevServer } from './start-dev-server';
import type { RawAnswer as Answer } from './__fixtures__/send-raw';
import { sendRaw as send } from './__fixtures__/send-raw';
import type { SessionDetail, SessionSummary } from './protocol/api-types';
import { ledger, slowReportAborted, slowReportStarted } from './__fixtures__/desk-agent';

const fixture = join(__dirname, '__fixtures__', 'desk-agent.ts');
// The attack of issue 25: a run of the approval-gated tool, "approved" by the request itself.
const approvedRefund = JSON.stringify({ args: { orderId: 'A-666', amount: 5000 }, confirmation: { confirmed: true } });

const codeOf = (answer: Answer) => (JSON.parse(answer.text) as { error: { code: string } }).error.code;

describe('the dev server refuses what a web page on another origin could send', () => {
  let server: DevServer;
  beforeEach(async () => {
    ledger.refunds.length = 0;
    server = await startDevServer({ host: await DevAgentHost.open({ module: fixture, store: 'memory' }) });
  });
  afterEach(() => server.close());

  it('prints the page URL with a new launch token in its fragment', async () => {
    expect(server.pageUrl).toBe(`${server.url}/#token=${server.token}`);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await startDevServer({ host: await DevAgentHost.open({ module: fixture, store: 'memory' }), page: false });
    try {
      expect(other.token).not.toBe(server.token);
      expect((await send(server, { path: '/api/info', token: other.token })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('a text/plain POST (a "simple" cross-site request or a form) runs nothing: 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const path of ['/api/tools/refund/run', '/api/sessions/s-1/run']) {
      const answer = await send(server, { method: 'POST', path, headers: { 'content-type': 'text/plain' }, body: approvedRefund });
      expect([answer.status, codeOf(answer)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(ledger.refunds).toEqual([]);
    expect(JSON.parse((await send(server, { path: '/api/sessions' })).text)).toEqual([]);
  });

  it('an API request without the launch token gets 401 UNAUTHORIZED, even as JSON; with it the same request runs', async () => {
    for (const token of [null, 'guessed']) {
      const answer = await send(server, { method: 'POST', path: '/api/tools/refund/run', headers: { 'content-type': 'application/json' }, body: approvedRefund, token });
      expect([answer.status, codeOf(answer)]).toEqual([401, 'UNAUTHORIZED']);
      expect(JSON.parse(answer.text).error.message).toContain('Authorization: Bearer');
      expect((await send(server, { path: '/api/sessions', token })).status).toBe(401);
    }
    expect(ledger.refunds).toEqual([]);
    const allowed = await send(server, { method: 'POST', path: '/api/tools/refund/run', headers: { 'content-type': 'application/json' }, body: approvedRefund });
    expect(allowed.status).toBe(200);
    expect(ledger.refunds).toEqual([{ orderId: 'A-666', amount: 5000 }]);
  });

  it('a browser Origin other than the page\'s gets 403 ORIGIN_NOT_ALLOWED, token or not', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${server.port + 1}`, 'null']) {
      const answer = await send(server, { method: 'POST', path: '/api/tools/refund/run', headers: { 'content-type': 'application/json', origin }, body: approvedRefund });
      expect([answer.status, codeOf(answer)]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    }
    expect(ledger.refunds).toEqual([]);
    const own = await send(server, { path: '/api/info', headers: { origin: server.url } });
    expect(own.status).toBe(200);
  });

  it('the answer, grant, inspector and search routes refuse another origin, a missing token, a rebinding Host and non-JSON bodies: nothing runs, no grant is made or revoked', async () => {
    const { end } = await runText(server, 's-answer', 'Refund 250 for order A-1002');
    const requestId = end.pending.confirmations[0].requestId;
    const always = JSON.stringify({ decision: 'approve', remember: { scope: 'app' } });
    const edit = JSON.stringify({ decision: 'edit', args: { orderId: 'A-1002', amount: 5000 } });
    const json = { 'content-type': 'application/json' };
    const answerPath = `/api/sessions/s-answer/confirmations/${requestId}`;
    const attempts: Array<[expected: [number, string], answer: Answer]> = [];
    for (const body of [always, edit, JSON.stringify({ decision: 'respond', result: 'done' })]) {
      attempts.push([[403, 'ORIGIN_NOT_ALLOWED'], await send(server, { method: 'POST', path: answerPath, headers: { ...json, origin: 'http://evil.example' }, body })]);
      attempts.push([[401, 'UNAUTHORIZED'], await send(server, { method: 'POST', path: answerPath, headers: json, body, token: null })]);
      attempts.push([[403, 'HOST_NOT_ALLOWED'], await send(server, { method: 'POST', path: answerPath, headers: { ...json, host: `rebind.example:${server.port}` }, body })]);
      attempts.push([[415, 'UNSUPPORTED_MEDIA_TYPE'], await send(server, { method: 'POST', path: answerPath, headers: { 'content-type': 'text/plain' }, body })]);
    }
    attempts.push([[400, 'MALFORMED_JSON'], await send(server, { method: 'POST', path: answerPath, headers: json, body: '{"decision":' })]);
    attempts.push([[400, 'BAD_REQUEST'], await send(server, { method: 'POST', path: answerPath, headers: json, body: '["approve"]' })]);
    attempts.push([[400, 'INVALID_CONFIRMATION_ANSWER'], await send(server, { method: 'POST', path: answerPath, headers: json, body: '{"decision":"approve","remember":{"scope":"everyone"}}' })]);
    attempts.push([[413, 'BODY_TOO_LARGE'], await send(server, { method: 'POST', path: answerPath, headers: json, body: JSON.stringify({ decision: 'reject', message: 'x'.repeat(1024 * 1024) }) })]);
    for (const [path, method] of [['/api/grants', 'GET'], ['/api/grants/grant-1', 'DELETE'], ['/api/sessions/s-answer/inspector', 'GET'], ['/api/sessions?q=A-1002', 'GET']] as const) {
      attempts.push([[403, 'ORIGIN_NOT_ALLOWED'], await send(server, { method, path, headers: { origin: `http://127.0.0.1:${server.port + 1}` } })]);
      attempts.push([[401, 'UNAUTHORIZED'], await send(server, { method, path, token: 'guessed' })]);
      attempts.push([[403, 'HOST_NOT_ALLOWED'], await send(server, { method, path, headers: { host: `rebind.example:${server.port}` } })]);
    }
    attempts.push([[405, 'METHOD_NOT_ALLOWED'], await send(server, { method: 'POST', path: '/api/grants', headers: json, body: always })]);
    expect(attempts.map(([, answer]) => [answer.status, codeOf(answer)])).toEqual(attempts.map(([expected]) => expected));
    for (const [, answer] of attempts) expect(answer.text).not.toContain('A-1002');

    expect(ledger.refunds).toEqual([]);
    expect(JSON.parse((await send(server, { path: '/api/grants' })).text)).toEqual([]);
    const detail = JSON.parse((await send(server, { path: '/api/sessions/s-answer' })).text) as SessionDetail;
    expect(detail.pending.confirmations.map((c) => c.requestId)).toEqual([requestId]);
    expect(detail.events).toHaveLength(3); // the message, the call, the request: nothing was added
  });

  it('grants no CORS: a preflight from another origin is refused, and no answer carries CORS headers', async () => {
    const preflight = await send(server, {
      method: 'OPTIONS',
      path: '/api/tools/refund/run',
      token: null,
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect([preflight.status, codeOf(preflight)]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    for (const answer of [preflight, await send(server, { path: '/api/info' })]) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('a rebinding Host name gets 403 HOST_NOT_ALLOWED, for the page and the API; the loopback names pass', async () => {
    const { end } = await runText(server, 's-pending', 'Refund 250 for order A-1002');
    const requestId = end.pending.confirmations[0].requestId;
    const rebound = { host: `rebind.example:${server.port}` };
    for (const answer of [
      await send(server, { path: '/', headers: rebound }),
      await send(server, { path: '/api/sessions/s-pending', headers: rebound }),
      await send(server, { method: 'POST', path: `/api/sessions/s-pending/confirmations/${requestId}`, headers: { ...rebound, 'content-type': 'application/json' }, body: '{"confirmed":true}' }),
    ]) {
      expect([answer.status, codeOf(answer)]).toEqual([403, 'HOST_NOT_ALLOWED']);
      expect(answer.text).not.toContain(requestId);
    }
    expect(ledger.refunds).toEqual([]);
    const detail = JSON.parse((await send(server, { path: '/api/sessions/s-pending' })).text) as SessionDetail;
    expect(detail.pending.confirmations.map((c) => c.requestId)).toEqual([requestId]);
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`]) {
      expect((await send(server, { path: '/api/info', headers: { host } })).status).toBe(200);
    }
  });

  it('the page checks a body as the API does (415, 400, 413); a zero Content-Length or an empty chunked body is no body', async () => {
    const status = async (options: Parameters<typeof send>[1]) => (await send(server, options)).status;
    expect(await status({ path: '/', token: null, headers: { 'content-type': 'text/plain', 'content-length': '1' }, body: 'x' })).toBe(415);
    expect(await status({ path: '/', token: null, headers: { 'content-type': 'application/json', 'content-length': '1' }, body: '{' })).toBe(400);
    expect(await status({ path: '/app.js', token: null, headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) } })).toBe(413);
    expect(await status({ path: '/api/info', headers: { 'content-length': '00' } })).toBe(200);
    expect(await status({ path: '/api/info', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } })).toBe(200);
    expect(await status({ path: '/', token: null, headers: { 'content-type': 'application/json', 'content-length': '2' }, body: '{}' })).toBe(200);
  });

  it('the page, served without the token, holds no data of the app: not even its name', async () => {
    const { appName } = JSON.parse((await send(server, { path: '/api/info' })).text) as { appName: string };
    const page = await send(server, { path: '/', token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Toolsmith dev UI</title>');
    expect(page.text).not.toContain(appName);
  });

  it('no page may frame it: every answer carries frame-ancestors \'none\' and X-Frame-Options: DENY', async () => {
    for (const answer of [await send(server, { path: '/' }), await send(server, { path: '/api/info' }), await send(server, { path: '/api/info', token: null })]) {
      expect(answer.headers['content-security-policy']).toBe("frame-ancestors 'none'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('a wrong method gets 405 METHOD_NOT_ALLOWED with Allow; malformed percent-encoding gets 400 MALFORMED_URL', async () => {
    const put = await send(server, { method: 'PUT', path: '/api/sessions/s-1' });
    expect([put.status, codeOf(put), put.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'GET, DELETE']);
    const postPage = await send(server, { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([postPage.status, postPage.headers.allow]).toEqual([405, 'GET']);
    for (const path of ['/api/sessions/%E0%A4%A', '/api/tools/%ZZ/run']) {
      const post = path.endsWith('run');
      const bad = await send(server, { method: post ? 'POST' : 'GET', path, ...(post ? { headers: { 'content-type': 'application/json' }, body: '{"args":{}}' } : {}) });
      expect([bad.status, codeOf(bad)]).toEqual([400, 'MALFORMED_URL']);
    }
  });

  it('a body over 1 MiB gets 413 BODY_TOO_LARGE', async () => {
    const answer = await send(server, { method: 'POST', path: '/api/sessions/s-big/run', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(1024 * 1024) }) });
    expect([answer.status, codeOf(answer)]).toEqual([413, 'BODY_TOO_LARGE']);
  });

  it('a user message 50,000 levels deep gets 400 INVALID_MESSAGE before anything is stored; the session stays readable', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const body = `{"message":{"role":"user","parts":[{"text":"hi","extra":${deep}}]}}`;
    const answer = await send(server, { method: 'POST', path: '/api/sessions/s-deep/run', headers: { 'content-type': 'application/json' }, body });
    expect([answer.status, codeOf(answer)]).toEqual([400, 'INVALID_MESSAGE']);
    expect(JSON.parse(answer.text).error.message).toContain('nested deeper than 64 levels');
    expect((JSON.parse((await send(server, { path: '/api/sessions' })).text) as SessionSummary[]).map((s) => s.id)).toEqual([]);
    const { end } = await runText(server, 's-deep', 'Look up order A-1001');
    expect(end.pending).toEqual({ confirmations: [], longRunning: [] });
    expect((await send(server, { path: '/api/sessions/s-deep' })).status).toBe(200);
  });

  it('a user message with a key besides role and parts (a 5,000-deep "meta") gets 400 INVALID_MESSAGE; nothing is stored', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const body = `{"message":{"role":"user","parts":[{"text":"hi"}],"meta":${deep}}}`;
    const answer = await send(server, { method: 'POST', path: '/api/sessions/s-meta/run', headers: { 'content-type': 'application/json' }, body });
    expect([answer.status, codeOf(answer)]).toEqual([400, 'INVALID_MESSAGE']);
    expect(JSON.parse(answer.text).error.message).toContain('a key "meta" a user Content does not have');
    expect((await send(server, { path: '/api/sessions/s-meta' })).status).toBe(404);
  });

  it('bound to 0.0.0.0 it answers any Host, and still wants the token and its own Origin', async () => {
    const wide = await startDevServer({ host: await DevAgentHost.open({ module: fixture, store: 'memory' }), hostname: '0.0.0.0', page: false });
    try {
      const host = { host: `dev-box.lan:${wide.port}` };
      expect((await send(wide, { path: '/api/info', headers: host })).status).toBe(200);
      expect(codeOf(await send(wide, { path: '/api/info', headers: host, token: null }))).toBe('UNAUTHORIZED');
      expect(codeOf(await send(wide, { path: '/api/info', headers: { ...host, origin: 'http://evil.example' } }))).toBe('ORIGIN_NOT_ALLOWED');
      expect((await send(wide, { path: '/api/info', headers: { ...host, origin: `http://dev-box.lan:${wide.port}` } })).status).toBe(200);
    } finally {
      await wide.close();
    }
  });

  it('a client that goes away from a tool run aborts the call: the tool sees its signal abort', async () => {
    const client = new AbortController();
    const running = fetch(`${server.url}/api/tools/slowReport/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
      body: '{"args":{}}',
      signal: client.signal,
    });
    await slowReportStarted;
    client.abort();
    await expect(running).rejects.toThrow();
    await expect(slowReportAborted).resolves.toBeDefined();
  });
});

async function runText(server: DevServer, sessionId: string, text: string) {
  const answer = await send(server, { method: 'POST', path: `/api/sessions/${sessionId}/run`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
  const endBlock = answer.text.split('\n\n').find((block) => block.startsWith('event: end'))!;
  return { end: JSON.parse(/^data: (.*)$/m.exec(endBlock)![1]) as { pending: SessionDetail['pending'] } };
}
