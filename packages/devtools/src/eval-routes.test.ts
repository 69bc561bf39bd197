import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalSet } from '@toolsmith/evals';
import { readEvalSetFile } from '@toolsmith/evals';
import { DevAgentHost } from './dev-agent-host';
import type { DevServer } from './start-dev-server';
import { startDevServer } from './start-dev-server';
import type { RawAnswer as Answer } from './__fixtures__/send-raw';
import { sendRaw as send } from './__fixtures__/send-raw';
import type { EvalCaseSaved, EvalsInfo, WireEvalReport } from './protocol/api-types';
import { readSse } from './__fixtures__/read-sse';
import { BEARER, PASSWORD } from './__fixtures__/login-agent';

const fixtures = join(__dirname, '__fixtures__');

describe('saving sessions as eval cases and running the eval set', () => {
  let dir: string;
  let server: DevServer;
  const open = async (module: string, evals?: string) => {
    server = await startDevServer({ host: await DevAgentHost.open({ module: join(fixtures, module), store: 'memory', cwd: dir, ...(evals ? { evals } : {}) }), page: false });
  };
  const headers = () => ({ authorization: `Bearer ${server.token}`, 'content-type': 'application/json' });
  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  const chat = async (sessionId: string, body: unknown) => readSse(await post(`/api/sessions/${sessionId}/run`, body));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-dev-evals-'));
  });
  afterEach(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('saves a session to evals/dev.evals.json as a case toolsmith eval reads, replaces it when saved again, and runs it: pass', async () => {
    await open('desk-agent.ts');
    const file = join(dir, 'evals', 'dev.evals.json');
    expect(await (await fetch(`${server.url}/api/evals`, { headers: headers() })).json()).toEqual({ file });
    await chat('s-1', { text: 'Look up order A-1001' });

    const saved = await post('/api/sessions/s-1/eval-case', {});
    expect(saved.status).toBe(201);
    expect(await saved.json()).toEqual({ file, setId: 'desk_agent', caseId: 's-1', replaced: false, turns: 1, withheld: [] });
    const set = readEvalSetFile(file);
    expect(set.cases[0]).toMatchObject({
      id: 's-1',
      userId: 'dev-user',
      turns: [{ user: 'Look up order A-1001', tools: { match: 'exact', calls: [{ name: 'lookupOrder', args: { orderId: 'A-1001' }, exactArgs: true }] }, answer: { exact: 'Order A-1001 has shipped; its total is 120 €.' } }],
    });

    await chat('s-2', { text: 'Look up order B-2' });
    const again = (await (await post('/api/sessions/s-2/eval-case', { caseId: 's-1' })).json()) as EvalCaseSaved;
    expect(again).toMatchObject({ caseId: 's-1', replaced: true });
    const info = (await (await fetch(`${server.url}/api/evals`, { headers: headers() })).json()) as EvalsInfo;
    expect(info.set).toEqual({ id: 'desk_agent', cases: [{ id: 's-1', turns: 1 }] });
    expect(readEvalSetFile(file).cases[0].turns[0].user).toBe('Look up order B-2');

    const run = await post('/api/evals/run', {});
    expect(run.status).toBe(200);
    const report = (await run.json()) as WireEvalReport;
    expect(report).toMatchObject({ file, setId: 'desk_agent', pass: true, passedCases: 1 });
    expect(report.cases[0].results[0].turns[0]).toMatchObject({ pass: true, trajectory: { pass: true, diff: [{ kind: 'match' }] }, answerCheck: { pass: true } });
    // The eval runs kept their sessions apart: the dev store has only the two chats.
    const sessions = (await (await fetch(`${server.url}/api/sessions`, { headers: headers() })).json()) as Array<{ id: string }>;
    expect(sessions.map((s) => s.id).sort()).toEqual(['s-1', 's-2']);
  });

  it('reports a failing case with the trajectory diff and the answer check, and runs only the cases asked for', async () => {
    const file = join(dir, 'desk.evals.json');
    const set: EvalSet = {
      id: 'desk',
      cases: [
        { id: 'wrong', turns: [{ user: 'Look up order A-1001', tools: { calls: [{ name: 'lookupOrder', args: { orderId: 'A-9999' } }] }, answer: { contains: 'refunded' } }] },
        { id: 'right', turns: [{ user: 'Look up order A-1001', tools: { calls: [{ name: 'lookupOrder' }] } }] },
      ],
    };
    writeFileSync(file, JSON.stringify(set));
    await open('desk-agent.ts', 'desk.evals.json');
    const report = (await (await post('/api/evals/run', {})).json()) as WireEvalReport;
    expect(report).toMatchObject({ pass: false, passedCases: 1, cases: [{ id: 'wrong', pass: false }, { id: 'right', pass: true }] });
    const turn = report.cases[0].results[0].turns[0];
    expect(turn.trajectory).toEqual({ pass: false, match: 'exact', diff: [{ kind: 'mismatch', expected: expect.stringContaining('A-9999'), actual: expect.stringContaining('A-1001'), problems: [expect.stringContaining('orderId')] }] });
    expect(turn.answerCheck).toMatchObject({ pass: false, expected: 'contains "refunded"' });

    const one = (await (await post('/api/evals/run', { caseIds: ['right'] })).json()) as WireEvalReport;
    expect(one.cases.map((c) => c.id)).toEqual(['right']);
    const unknown = await post('/api/evals/run', { caseIds: ['nope'] });
    expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('runs a set whose argument matcher throws: 200, that case fails saying why, the other case passes', async () => {
    const module = join(dir, 'throwing.evals.cjs');
    writeFileSync(
      module,
      `module.exports.evalSet = { id: 'throwing', cases: [
        { id: 'broken', turns: [{ user: 'Look up order A-1001', tools: { calls: [{ name: 'lookupOrder', args: { orderId: function brokenCheck() { throw new Error('no check today'); } } }] } }] },
        { id: 'right', turns: [{ user: 'Look up order A-1001', tools: { calls: [{ name: 'lookupOrder', args: { orderId: 'A-1001' } }] } }] },
      ] };\n`,
    );
    await open('desk-agent.ts', module);
    const run = await post('/api/evals/run', {});
    expect(run.status).toBe(200);
    const report = (await run.json()) as WireEvalReport;
    expect(report).toMatchObject({ pass: false, passedCases: 1, cases: [{ id: 'broken', pass: false }, { id: 'right', pass: true }] });
    expect(report.cases[0].results[0].turns[0].trajectory!.diff).toEqual([
      expect.objectContaining({ kind: 'mismatch', problems: ['args.orderId: the function brokenCheck threw: no check today'] }),
    ]);
  });

  it('withholds secret-looking arguments (by name, or a secret value nested inside) and the replayed case still passes', async () => {
    await open('login-agent.ts');
    await chat('s-login', { text: 'Connect to the database' });
    const saved = (await (await post('/api/sessions/s-login/eval-case', { caseId: 'login' })).json()) as EvalCaseSaved;
    expect(saved.withheld).toEqual(['turn 1: connect.password', 'turn 1: connect.options', 'turn 1: answer']);
    const text = readFileSync(saved.file, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(BEARER);
    expect(readEvalSetFile(saved.file).cases[0].turns[0].tools!.calls).toEqual([{ name: 'connect', args: { host: 'db.internal' } }]);
    expect(readEvalSetFile(saved.file).cases[0].turns[0].answer).toEqual({ pattern: '^\\s*Connected \\(header .+\\)\\.\\s*$', flags: 's' });
    expect(((await (await post('/api/evals/run', {})).json()) as WireEvalReport).pass).toBe(true);
  });

  it('keeps no trace of a credential the user typed in', async () => {
    await open('keyed-agent.ts');
    const key = 'wk-user-typed-key-9876543210';
    const first = await chat('s-key', { text: 'Weather please' });
    const requestId = (first.find((m) => m.event === 'end')!.data as { pending: { confirmations: Array<{ requestId: string }> } }).pending.confirmations[0].requestId;
    await chat('s-key', { message: { role: 'user', parts: [{ functionResponse: { id: requestId, name: 'toolsmith_request_credential', response: { credential: { apiKey: key } } } }] } });
    const saved = (await (await post('/api/sessions/s-key/eval-case', {})).json()) as EvalCaseSaved;
    const text = readFileSync(saved.file, 'utf8');
    expect(text).toContain('The forecast is sunny.');
    expect(text).not.toContain(key);
  });

  it('refuses what it cannot save or run, with a typed error, and writes nothing', async () => {
    await open('desk-agent.ts');
    const file = join(dir, 'evals', 'dev.evals.json');
    const code = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];
    expect(await code(await post('/api/sessions/missing/eval-case', {}))).toEqual([404, 'SESSION_NOT_FOUND']);
    await post('/api/sessions', { sessionId: 'empty' });
    expect(await code(await post('/api/sessions/empty/eval-case', {}))).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await post('/api/evals/run', {}))).toEqual([404, 'NOT_FOUND']);
    expect(existsSync(file)).toBe(false);

    await chat('s-1', { text: 'Look up order A-1001' });
    writeFileSync(join(dir, 'adk.evalset.json'), JSON.stringify({ eval_set_id: 'adk', eval_cases: [] }));
    await server.close();
    await open('desk-agent.ts', 'adk.evalset.json');
    await chat('s-1', { text: 'Look up order A-1001' });
    const adk = await post('/api/sessions/s-1/eval-case', {});
    expect(await code(adk)).toEqual([400, 'BAD_REQUEST']);
    expect(JSON.parse(readFileSync(join(dir, 'adk.evalset.json'), 'utf8'))).toEqual({ eval_set_id: 'adk', eval_cases: [] });
    writeFileSync(join(dir, 'adk.evalset.json'), '{ not json');
    expect(await code(await post('/api/sessions/s-1/eval-case', {}))).toEqual([400, 'EVAL_SET_INVALID']);
    expect(await code(await post('/api/evals/run', {}))).toEqual([400, 'EVAL_SET_INVALID']);
  });
});


describe('the eval routes behind the dev server guard', () => {
  it('refuse another origin, a missing or wrong token, a rebinding Host, non-JSON, malformed and oversized bodies: nothing is saved or run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsmith-dev-evals-'));
    const server = await startDevServer({ host: await DevAgentHost.open({ module: join(fixtures, 'desk-agent.ts'), store: 'memory', cwd: dir }) });
    try {
      const json = { 'content-type': 'application/json' };
      const headers = { authorization: `Bearer ${server.token}`, ...json };
      await readSse(await fetch(`${server.url}/api/sessions/s-1/run`, { method: 'POST', headers, body: JSON.stringify({ text: 'Look up order A-1001' }) }));
      const routes: Array<[string, string]> = [
        ['POST', '/api/sessions/s-1/eval-case'],
        ['POST', '/api/evals/run'],
        ['GET', '/api/evals'],
      ];
      for (const [method, path] of routes) {
        const body = method === 'POST' ? '{}' : undefined;
        const expectations: Array<[number, string, Answer]> = [
          [403, 'ORIGIN_NOT_ALLOWED', await send(server, { method, path, headers: { ...json, origin: 'http://evil.example' }, body })],
          [401, 'UNAUTHORIZED', await send(server, { method, path, headers: json, body, token: null })],
          [401, 'UNAUTHORIZED', await send(server, { method, path, headers: json, body, token: 'guessed' })],
          [403, 'HOST_NOT_ALLOWED', await send(server, { method, path, headers: { ...json, host: 'evil.example' }, body })],
        ];
        if (method === 'POST') {
          expectations.push(
            [415, 'UNSUPPORTED_MEDIA_TYPE', await send(server, { method, path, headers: { 'content-type': 'text/plain' }, body: '{}' })],
            [400, 'MALFORMED_JSON', await send(server, { method, path, headers: json, body: '{"caseId":' })],
            [400, 'BAD_REQUEST', await send(server, { method, path, headers: json, body: '["s-1"]' })],
            [400, 'BAD_REQUEST', await send(server, { method, path, headers: json, body: path.endsWith('run') ? '{"caseIds":"s-1"}' : '{"caseId":7}' })],
            [413, 'BODY_TOO_LARGE', await send(server, { method, path, headers: json, body: JSON.stringify({ caseId: 'x'.repeat(1024 * 1024) }) })],
          );
        }
        for (const [status, code, answer] of expectations) expect([path, answer.status, JSON.parse(answer.text).error.code]).toEqual([path, status, code]);
      }
      expect(existsSync(join(dir, 'evals'))).toBe(false);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
