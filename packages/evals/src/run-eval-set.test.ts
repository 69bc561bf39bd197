import { AgentTool, InMemorySessionService, LlmAgent, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { behaviour, shopAgent } from './__fixtures__/shop-agent';
import { checkEvalSet } from './check-eval-set';
import type { EvalSet, ExpectedCall, TrajectoryMatch } from './eval-set';
import { expectEvalSet } from './expect-eval-set';
import { formatEvalReport } from './format-eval-report';
import { runEvalSet } from './run-eval-set';

const whereIs: EvalSet = {
  id: 'orders',
  cases: [
    {
      id: 'where-is',
      turns: [
        { user: 'Hello', tools: { calls: [] }, answer: { contains: 'help' } },
        { user: 'Where is A-1?', tools: { match: 'exact', calls: [{ name: 'lookupOrder', args: { orderId: /^A-\d+$/ } }] }, answer: { pattern: 'has shipped' } },
      ],
    },
  ],
};

beforeEach(() => {
  behaviour.variant = 'good';
  behaviour.runs = 0;
});

describe('runEvalSet', () => {
  it('runs each turn through a real Runner and checks its calls and answer', async () => {
    const report = await runEvalSet(whereIs, { agent: shopAgent() });
    expect(report).toMatchObject({ setId: 'orders', pass: true, passedCases: 1 });
    const [run] = report.cases[0].results;
    expect(run).toMatchObject({ run: 1, pass: true, sessionId: expect.stringMatching(/^eval-/) });
    expect(run.turns[1]).toEqual({
      index: 1,
      user: 'Where is A-1?',
      pass: true,
      calls: [{ name: 'lookupOrder', args: { orderId: 'A-1' }, agent: 'shop' }],
      answer: 'Order A-1 has shipped.',
      trajectory: { pass: true, match: 'exact', diff: [{ kind: 'match', expected: 'lookupOrder(orderId: /^A-\\d+$/, …)', actual: 'lookupOrder({"orderId":"A-1"})' }] },
      answerCheck: { pass: true, expected: 'matches /has shipped/' },
    });
    expect(formatEvalReport(report)).toBe('Eval set orders: 1 case\n✓ where-is  1/1 runs passed (threshold 100%)\n1 of 1 case passed.\n');
  });

  it('runs a case N times, each in a new session, and passes it when enough runs pass', async () => {
    behaviour.variant = 'sloppy-every-other'; // runs 2 and 4 make an extra call
    const sessions = new InMemorySessionService();
    const set: EvalSet = { ...whereIs, runs: 4, threshold: 0.5 };
    const report = await runEvalSet(set, { agent: shopAgent(), sessionService: sessions });
    expect(report.cases[0]).toMatchObject({ pass: true, runs: 4, passedRuns: 2, threshold: 0.5 });
    expect(report.cases[0].results.map((r) => r.pass)).toEqual([true, false, true, false]);
    expect(new Set(report.cases[0].results.map((r) => r.sessionId)).size).toBe(4);
    const stored = await sessions.listSessions({ appName: 'shop', userId: 'eval-user' });
    expect(stored.map((s) => s.id).sort()).toEqual(report.cases[0].results.map((r) => r.sessionId).sort());

    const strict = await runEvalSet({ ...set, cases: [{ ...set.cases[0], threshold: 0.75 }] }, { agent: shopAgent() });
    expect(strict).toMatchObject({ pass: false, passedCases: 0 });
    expect(strict.cases[0]).toMatchObject({ pass: false, passedRuns: 2, threshold: 0.75 });
  });

  it('reports a failing run with the trajectory diff and the answer check', async () => {
    behaviour.variant = 'wrong-order';
    const report = await runEvalSet({ ...whereIs, cases: [{ ...whereIs.cases[0], id: 'wrong' }] }, { agent: shopAgent() });
    expect(report.pass).toBe(false);
    expect(formatEvalReport(report)).toBe(
      [
        'Eval set orders: 1 case',
        '✗ wrong  0/1 runs passed (threshold 100%)',
        '    run 1',
        '      turn 2 "Where is A-1?"',
        '        tools (exact)',
        '          ✗ unexpected note({"text":"asked"})',
        '          ✓ lookupOrder({"orderId":"A-1"})',
        '        answer matches /has shipped/: ✓',
        '0 of 1 case passed.',
        '',
      ].join('\n'),
    );
  });

  it('an argument matcher that throws fails its turn, saying why, and the other cases still run', async () => {
    function broken(value: unknown): boolean {
      throw new Error(`cannot read ${String(value)} with sk-proj-MATCHERLEAK1234567890`);
    }
    const set: EvalSet = { id: 'orders', cases: [{ id: 'throws', turns: [{ ...whereIs.cases[0].turns[1], tools: { calls: [{ name: 'lookupOrder', args: { orderId: broken } }] } }] }, { ...whereIs.cases[0], id: 'fine' }] };
    const report = await runEvalSet(set, { agent: shopAgent() });
    expect(report.cases.map((c) => [c.id, c.pass])).toEqual([
      ['throws', false],
      ['fine', true],
    ]);
    expect(report.cases[0].results[0].turns[0].trajectory!.diff).toEqual([
      {
        kind: 'mismatch',
        expected: 'lookupOrder(orderId: the function broken, …)',
        actual: 'lookupOrder({"orderId":"A-1"})',
        problems: ['args.orderId: the function broken threw: cannot read A-1 with [redacted]'],
      },
    ]);
    expect(formatEvalReport(report)).not.toContain('MATCHERLEAK');
  });

  it('a turn that ends in an error fails its run, and the run stops there', async () => {
    behaviour.variant = 'fail';
    const report = await runEvalSet(whereIs, { agent: shopAgent() });
    const [run] = report.cases[0].results;
    expect(run.pass).toBe(false);
    expect(run.turns).toHaveLength(1);
    expect(run.turns[0]).toMatchObject({ pass: false, error: { code: 'PROVIDER_ERROR' } });
    expect(formatEvalReport(report)).toContain('        error PROVIDER_ERROR: ');
  });

  it('a turn that pauses for a confirmation fails, naming the call', async () => {
    const set: EvalSet = { id: 'refunds', cases: [{ id: 'big', turns: [{ user: 'Refund big A-1', tools: { calls: [{ name: 'refund' }] } }, { user: 'Thanks' }] }] };
    const report = await runEvalSet(set, { agent: shopAgent() });
    const [run] = report.cases[0].results;
    expect(run.turns).toHaveLength(1);
    expect(run.turns[0]).toMatchObject({ pass: false, calls: [{ name: 'refund', args: { orderId: 'A-1', amount: 250 } }], pausedOn: ['confirmation of refund'] });
    expect(run.turns[0].trajectory?.pass).toBe(true);
    expect(formatEvalReport(report)).toContain('        paused on confirmation of refund (an eval turn cannot answer it)');
    // A small refund needs no approval: the same case shape passes.
    const small = await runEvalSet({ id: 'refunds', cases: [{ id: 'small', turns: [{ user: 'Refund A-1', tools: { calls: [{ name: 'refund', args: { amount: 20 } }] }, answer: { exact: 'Refunded 20 on A-1.' } }] }] }, { agent: shopAgent() });
    expect(small.pass).toBe(true);
  });

  it('starts each session from the case state and user', async () => {
    const sessions = new InMemorySessionService();
    const set: EvalSet = { id: 's', cases: [{ id: 'c', userId: 'ada', initialState: { tier: 'gold' }, turns: [{ user: 'Hello' }] }] };
    const report = await runEvalSet(set, { agent: shopAgent(), sessionService: sessions, appName: 'desk' });
    const session = await sessions.getSession({ appName: 'desk', userId: 'ada', sessionId: report.cases[0].results[0].sessionId });
    expect(session?.state).toEqual({ tier: 'gold' });
  });

  it('grades judged answers with the judge model', async () => {
    const judge = new ScriptedModel(() => '{"pass": true, "reason": "Friendly."}');
    const set: EvalSet = { id: 'tone', cases: [{ id: 'hello', turns: [{ user: 'Hello', answer: { judge: 'is friendly' } }] }] };
    const report = await runEvalSet(set, { agent: shopAgent(), judgeModel: judge });
    expect(report.cases[0].results[0].turns[0].answerCheck).toEqual({ pass: true, expected: 'judge: is friendly', detail: 'Friendly.' });
    expect(judge.callCount).toBe(1);
  });

  it('refuses every argument matcher that could never match, all at once, and an answer\'s flags beside a RegExp', async () => {
    const args = {
      nestedRegExp: { id: /^A/ },
      nestedFunction: [() => true],
      notANumber: NaN,
      infinite: { n: Infinity },
      date: new Date(0),
      missing: undefined,
      patternAndMore: { $pattern: '^A', other: 1 },
      equalsAndMore: { $equals: 1, $flags: 'i' },
      nestedPattern: { q: { $pattern: '^A' } },
    };
    const set = { id: 's', cases: [{ id: 'c', turns: [{ user: 'x', tools: { calls: [{ name: 'f', args }] }, answer: { pattern: /order/, flags: 'i' } }] }] };
    const where = '  - cases[0].turns[0].tools.calls[0].args.';
    const pushed = 'a matcher must be the whole argument';
    await expect(runEvalSet(set as unknown as EvalSet, { agent: shopAgent() })).rejects.toMatchObject({
      code: 'EVAL_SET_INVALID',
      message: [
        'The eval set is not a valid eval set:',
        `${where}nestedRegExp holds a RegExp at id: ${pushed}; inside a value it is compared by equality and never matches`,
        `${where}nestedFunction holds a function at [0]: ${pushed}; inside a value it is compared by equality and never matches`,
        `${where}notANumber holds NaN, which JSON cannot hold: no argument is ever equal to it`,
        `${where}infinite holds Infinity at n, which JSON cannot hold: no argument is ever equal to it`,
        `${where}date holds a Date, which is not JSON: no argument is ever equal to it`,
        `${where}missing is undefined: no argument is ever undefined (leave it out, or expect null)`,
        `${where}patternAndMore has other beside $pattern and $flags: a matcher has no other key (to expect an object with such keys, write { "$equals": … } around it)`,
        `${where}equalsAndMore has $flags beside $equals: a matcher has no other key (to expect an object with such keys, write { "$equals": … } around it)`,
        `${where}nestedPattern holds an object with a $pattern or $equals key at q: ${pushed} (to expect such an object, write { "$equals": … } around the whole argument)`,
        '  - cases[0].turns[0].answer.flags cannot be given with a RegExp pattern (its own flags are used): write them in the RegExp (/…/i), or give the pattern as a string',
      ].join('\n'),
    });
    // Inside $equals, such keys are the value itself.
    const literal: EvalSet = { id: 's', cases: [{ id: 'c', turns: [{ user: 'x', tools: { calls: [{ name: 'f', args: { q: { $equals: { a: { $pattern: 'x' } } } } }] } }] }] };
    expect(() => checkEvalSet(literal, { judgeModel: false, run: true })).not.toThrow();
  });

  it('refuses a malformed set, or a judged answer without a judge, before running anything', async () => {
    const agent = shopAgent();
    const bad = { id: '', cases: [{ id: 'a', runs: 99999999999, turns: [{ user: 'x', tools: { match: 'sorted', calls: [{ name: 'f', args: { q: { $pattern: '(' } }, failed: 'yes' }] }, answer: { exact: 'a', contains: 'b' } }] }], runs: 0 };
    await expect(runEvalSet(bad as unknown as EvalSet, { agent })).rejects.toMatchObject({
      code: 'EVAL_SET_INVALID',
      message: [
        'The eval set is not a valid eval set:',
        '  - id must be a non-empty string',
        '  - runs must be a whole number from 1 to 1000',
        '  - cases[0].runs must be a whole number from 1 to 1000',
        '  - cases[0].turns[0].tools.match must be one of exact, inOrder, anyOrder, superset, subset',
        '  - cases[0].turns[0].tools.calls[0].failed must be a boolean',
        '  - cases[0].turns[0].tools.calls[0].args.q is not a valid regular expression: Invalid regular expression: /(/: Unterminated group',
        '  - cases[0].turns[0].answer must have exactly one of exact, contains, pattern, schema, judge',
      ].join('\n'),
    });
    const badSchemas = {
      id: 's',
      cases: [
        { id: 'a', turns: [{ user: 'x', answer: { schema: { type: 'object', required: 'orderId' } } }] },
        { id: 'b', turns: [{ user: 'x', answer: { schema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } } }] },
      ],
    };
    await expect(runEvalSet(badSchemas as unknown as EvalSet, { agent })).rejects.toMatchObject({
      code: 'EVAL_SET_INVALID',
      message: expect.stringMatching(
        /cases\[0\]\.turns\[0\]\.answer\.schema is not a valid JSON Schema: .*required.*\n {2}- cases\[1\]\.turns\[0\]\.answer\.schema is not a valid JSON Schema: \$schema "http:\/\/json-schema\.org\/draft-04\/schema#" is not supported/,
      ),
    });
    const typos = { id: 't', threshhold: 0.5, cases: [{ id: 'a', turns: [{ user: 'x', tool: { calls: [] }, answers: { exact: 'a' }, answer: { exact: 'a', flags: 'i' } }] }] };
    await expect(runEvalSet(typos as unknown as EvalSet, { agent })).rejects.toMatchObject({
      code: 'EVAL_SET_INVALID',
      message: [
        'The eval set is not a valid eval set:',
        '  - threshhold is not a known key (known: id, name, description, cases, runs, threshold, createdAt)',
        '  - cases[0].turns[0].tool is not a known key (known: user, tools, answer, id, createdAt)',
        '  - cases[0].turns[0].answers is not a known key (known: user, tools, answer, id, createdAt)',
        '  - cases[0].turns[0].answer.flags is not a known key (known: exact)',
      ].join('\n'),
    });
    const judged: EvalSet = { id: 'j', cases: [{ id: 'polite', turns: [{ user: 'Hello', answer: { judge: 'is polite' } }] }] };
    await expect(runEvalSet(judged, { agent })).rejects.toMatchObject({ code: 'EVAL_JUDGE_MISSING', message: expect.stringContaining('Case polite expects a judged answer') });
    expect((agent.model as ScriptedModel).callCount).toBe(0);
  });

  it('passes plugins to the runner, reports each run to onRun, and stops on the signal', async () => {
    const models: string[] = [];
    const seen: Array<[string, number, boolean]> = [];
    const plugin = { name: 'count', beforeModel: () => void models.push('call') };
    const report = await runEvalSet({ ...whereIs, runs: 2 }, { agent: shopAgent(), plugins: [plugin], onRun: (id, run) => seen.push([id, run.run, run.pass]) });
    expect(report.pass).toBe(true);
    expect(models).toHaveLength(6); // per run: the greeting, the lookup, the answer after it
    expect(seen).toEqual([
      ['where-is', 1, true],
      ['where-is', 2, true],
    ]);
    const aborted = await runEvalSet(whereIs, { agent: shopAgent(), signal: AbortSignal.abort('stop') });
    expect(aborted.cases[0].results[0].turns[0]).toMatchObject({ pass: false, error: { code: 'RUN_ABORTED' } });
  });
});

describe('runEvalSet: secrets in the report', () => {
  it('redacts secret-named arguments and bearer tokens or API keys in the calls, the diff, the error and the text report', async () => {
    const connect = functionTool({
      name: 'connect',
      description: 'Connects to a service.',
      parameters: { type: 'object', properties: { url: { type: 'string' }, apiKey: { type: 'string' } }, required: ['url', 'apiKey'] },
      execute: () => ({ ok: true }),
    });
    const token = functionTool({
      name: 'token',
      description: 'Fails, quoting a key.',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        throw new Error('the key sk-live-0123456789abcdef was refused');
      },
    });
    const model = new ScriptedModel([
      { calls: [{ name: 'connect', args: { url: 'https://api.example', apiKey: 'hunter2-plain' } }, { name: 'token', args: {} }] },
      new Error('401 from the service: Authorization: Bearer abcdefghijklmnop123 was refused for key sk-live-0123456789abcdef'),
    ]);
    const agent = new LlmAgent({ name: 'a', model, tools: [connect, token] });
    const set: EvalSet = { id: 's', cases: [{ id: 'c', turns: [{ user: 'Connect', tools: { calls: [{ name: 'connect', args: { apiKey: 'other-key', url: 'https://api.example' } }] } }] }] };
    const report = await runEvalSet(set, { agent });
    const printed = `${formatEvalReport(report)}\n${JSON.stringify(report)}`;
    for (const secret of ['hunter2-plain', 'other-key', 'abcdefghijklmnop123', 'sk-live-0123456789abcdef']) expect(printed).not.toContain(secret);
    const turn = report.cases[0].results[0].turns[0];
    expect(turn.calls[0].args).toEqual({ url: 'https://api.example', apiKey: '[redacted]' });
    expect(turn.trajectory?.diff[0]).toMatchObject({ kind: 'mismatch', problems: ['args.apiKey: [redacted] does not match [redacted]'] });
    expect(turn.error?.message).toContain('Authorization: Bearer [redacted] was refused for key [redacted]');
    expect(turn.calls[1].error).toEqual({ code: 'TOOL_EXECUTION_FAILED', message: expect.stringContaining('the key [redacted] was refused') });
  });
});

describe('runEvalSet: whose calls a turn lists', () => {
  it('lists an agent tool\'s call, not the calls its agent makes inside it (docs/evals.md)', async () => {
    const lookup = functionTool({ name: 'lookup', description: 'l', parameters: { type: 'object', properties: {} }, execute: () => ({ ok: 1 }) });
    const inner = new LlmAgent({ name: 'helper', description: 'helps', model: new ScriptedModel([{ calls: [{ name: 'lookup' }] }, 'inner done']), tools: [lookup] });
    const outer = new LlmAgent({ name: 'shop', model: new ScriptedModel([{ calls: [{ name: 'helper', args: { request: 'go' } }] }, 'outer done']), tools: [new AgentTool({ agent: inner })] });
    const report = await runEvalSet({ id: 's', cases: [{ id: 'c', turns: [{ user: 'x', tools: { calls: [{ name: 'helper', args: { request: 'go' }, exactArgs: true }] } }] }] }, { agent: outer });
    expect(report.pass).toBe(true);
    expect(report.cases[0].results[0].turns[0].calls).toEqual([{ name: 'helper', args: { request: 'go' }, agent: 'shop' }]);
  });
});

describe('runEvalSet: arguments sent as JSON text', () => {
  /** An agent whose model sends `lookupOrder` its arguments as this text, then answers. */
  const textCalling = (argsText: string, seen: unknown[] = []) => {
    const lookup = functionTool<{ orderId: string }>({
      name: 'lookupOrder',
      description: 'Looks an order up',
      parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      execute: (args) => (seen.push(args), { status: 'shipped' }),
    });
    return new LlmAgent({ name: 'shop', tools: [lookup], model: new ScriptedModel((_r, i) => (i % 2 === 0 ? { calls: [{ name: 'lookupOrder', args: argsText }] } : 'Shipped.')) });
  };
  const expecting = (args: Record<string, string>): EvalSet => ({ id: 's', cases: [{ id: 'c', turns: [{ user: 'Where is A-1?', tools: { calls: [{ name: 'lookupOrder', args, exactArgs: true }] } }] }] });

  it('compares the arguments the tool was run with, parsed as the executor parses them', async () => {
    const seen: unknown[] = [];
    const report = await runEvalSet(expecting({ orderId: 'A-1' }), { agent: textCalling('{"orderId":"A-1"}', seen) });
    expect(seen).toEqual([{ orderId: 'A-1' }]);
    expect(report.pass).toBe(true);
    expect(report.cases[0].results[0].turns[0].calls).toEqual([{ name: 'lookupOrder', args: { orderId: 'A-1' }, agent: 'shop' }]);
    expect((await runEvalSet(expecting({ orderId: 'Z-9' }), { agent: textCalling('{"orderId":"A-1"}') })).pass).toBe(false);
  });

  it('reads text the executor repaired after the same repair', async () => {
    const seen: unknown[] = [];
    const report = await runEvalSet(expecting({ orderId: 'A-1' }), { agent: textCalling('```json\n{"orderId":"A-1",}\n```', seen) });
    expect(seen).toEqual([{ orderId: 'A-1' }]);
    expect(report.pass).toBe(true);
  });

  it('keeps text the executor refused as malformed, and says no tool ran', async () => {
    const seen: unknown[] = [];
    const report = await runEvalSet(expecting({ orderId: 'A-1' }), { agent: textCalling('{"orderId": "A-', seen) });
    expect(seen).toEqual([]);
    const turn = report.cases[0].results[0].turns[0];
    expect(turn.calls[0].args).toBe('{"orderId": "A-');
    expect(turn.trajectory?.diff[0]).toMatchObject({ kind: 'mismatch', problems: ['its arguments are not a JSON object (the executor refused them as malformed; no tool ran): {"orderId": "A-'] });
  });
});

describe('runEvalSet: a call that failed', () => {
  /** An agent whose model makes this call, then answers "Done.". */
  const calling = (name: string, args: Record<string, unknown>) => {
    const pay = functionTool<{ amount: number }>({
      name: 'pay',
      description: 'Pays',
      parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      execute: ({ amount }) => {
        if (amount > 100) throw new Error('the card was declined');
        return { paid: amount };
      },
    });
    return new LlmAgent({ name: 'shop', tools: [pay], model: new ScriptedModel((_r, i) => (i % 2 === 0 ? { calls: [{ name, args }] } : 'Done.')) });
  };
  const expecting = (call: ExpectedCall, match: TrajectoryMatch = 'exact'): EvalSet => ({ id: 's', cases: [{ id: 'c', turns: [{ user: 'Pay', tools: { match, calls: [call] }, answer: { exact: 'Done.' } }] }] });

  it('does not count as the expected call: the tool threw, the arguments were invalid, the tool is unknown (docs/evals.md)', async () => {
    const failures: Array<[string, Record<string, unknown>, string]> = [
      ['pay', { amount: 500 }, 'TOOL_EXECUTION_FAILED'],
      ['pay', { amount: 'lots' }, 'INVALID_ARGUMENTS'],
      ['refund', { amount: 5 }, 'TOOL_NOT_FOUND'],
    ];
    for (const [name, args, code] of failures) {
      for (const match of ['exact', 'inOrder', 'anyOrder', 'superset', 'subset'] as const) {
        const report = await runEvalSet(expecting({ name }, match), { agent: calling(name, args) });
        const turn = report.cases[0].results[0].turns[0];
        expect([name, match, report.pass, turn.calls[0].error?.code]).toEqual([name, match, false, code]);
      }
      const report = await runEvalSet(expecting({ name }), { agent: calling(name, args) });
      expect(formatEvalReport(report)).toContain(`          ✗ ${name}(…) ≠ ${name}(${JSON.stringify(args)}): called ${name} but it failed: ${code}: `);
    }
    expect(formatEvalReport(await runEvalSet(expecting({ name: 'pay' }), { agent: calling('pay', { amount: 500 }) }))).toContain('but it failed: TOOL_EXECUTION_FAILED: ');
    // The same call that succeeds matches; a call expected to fail matches only one that failed.
    const ok = await runEvalSet(expecting({ name: 'pay' }), { agent: calling('pay', { amount: 5 }) });
    expect(ok.pass).toBe(true);
    expect(ok.cases[0].results[0].turns[0].calls).toEqual([{ name: 'pay', args: { amount: 5 }, agent: 'shop' }]);
    expect((await runEvalSet(expecting({ name: 'pay', failed: true }), { agent: calling('pay', { amount: 500 }) })).pass).toBe(true);
    const notFailed = await runEvalSet(expecting({ name: 'pay', failed: true }), { agent: calling('pay', { amount: 5 }) });
    expect(formatEvalReport(notFailed)).toContain('          ✗ pay(…) failing ≠ pay({"amount":5}): called pay and it did not fail');
  });
});

describe('runEvalSet: arguments the executor repaired', () => {
  it('compares the values the tool was run with: a number or boolean sent as text, a double-encoded property, an enum value\'s case, null for an optional', async () => {
    const seen: unknown[] = [];
    const order = functionTool({
      name: 'order',
      description: 'Orders',
      parameters: { type: 'object', properties: { count: { type: 'integer' }, gift: { type: 'boolean' }, filter: { type: 'object' }, size: { enum: ['small', 'large'] }, note: { type: 'string' } }, required: ['count'] },
      execute: (args) => (seen.push(args), { ok: true }),
    });
    const sent = { count: '5', gift: 'True', filter: '{"a":1}', size: 'LARGE', note: null };
    const ran = { count: 5, gift: true, filter: { a: 1 }, size: 'large' };
    const agent = new LlmAgent({ name: 'shop', tools: [order], model: new ScriptedModel((_r, i) => (i % 2 === 0 ? { calls: [{ name: 'order', args: sent }] } : 'Ordered.')) });
    const report = await runEvalSet({ id: 's', cases: [{ id: 'c', turns: [{ user: 'Order', tools: { calls: [{ name: 'order', args: ran, exactArgs: true }] } }] }] }, { agent });
    expect(seen).toEqual([ran]);
    expect(report.cases[0].results[0].turns[0].calls).toEqual([{ name: 'order', args: ran, agent: 'shop' }]);
    expect(report.pass).toBe(true);
  });
});

describe('expectEvalSet', () => {
  it('resolves with the report when every case passes', async () => {
    await expect(expectEvalSet(whereIs, { agent: shopAgent() })).resolves.toMatchObject({ pass: true });
  });

  it('rejects with the report as its message when a case is below its threshold', async () => {
    behaviour.variant = 'no-lookup';
    const failure = expectEvalSet(whereIs, { agent: shopAgent() });
    await expect(failure).rejects.toMatchObject({ code: 'EVAL_SET_FAILED', details: expect.objectContaining({ pass: false }) });
    await expect(failure).rejects.toThrow(/^Eval set failed: 1 case below threshold \(where-is\)\.\n\nEval set orders: 1 case\n✗ where-is/);
    await expect(failure).rejects.toThrow('          ✗ missing lookupOrder(orderId: /^A-\\d+$/, …)\n        answer matches /has shipped/: ✗ the answer is "I cannot look that up."');
  });
});
