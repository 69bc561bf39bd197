import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli } from '../__fixtures__/run-cli';
import { MAX_EVAL_RUNS } from '@toolsmith/evals';
import { EVAL_USAGE, parseEvalArgs } from './eval-command';

const FIXTURES = join(__dirname, '..', '__fixtures__', 'evals');
// The offline shop agent of @toolsmith/evals' tests (ScriptedModel): looks orders up, refunds.
const SHOP_AGENT = resolve(__dirname, '..', '..', '..', 'evals', 'src', '__fixtures__', 'shop-agent.ts');
const CLI_ROOT = resolve(__dirname, '..', '..');

// A bound, not a wait: the first test loads the agent module, slow when the whole suite shares the machine.
jest.setTimeout(60_000);

describe('toolsmith eval', () => {
  it('parses its options', () => {
    expect(parseEvalArgs(['set.json', '--agent', 'agent.ts'])).toEqual({ evalSet: 'set.json', agent: 'agent.ts', json: false });
    expect(parseEvalArgs(['--json', 'set.ts', '--runs', '3', '--threshold', '0.5', '--adk-answers', 'ignore'])).toEqual({
      evalSet: 'set.ts',
      json: true,
      runs: 3,
      threshold: 0.5,
      adkAnswers: 'ignore',
    });
    expect(() => parseEvalArgs([])).toThrow(expect.objectContaining({ code: 'CLI_USAGE' }));
    for (const runs of ['0', '-5', '2.5', '1e3', '0x10', '1001', '99999999999', '99999999999999999999999']) {
      expect(() => parseEvalArgs(['a.json', '--runs', runs])).toThrow(expect.objectContaining({ code: 'CLI_USAGE', message: expect.stringMatching(new RegExp(`^--runs must be a whole number from 1 to 1000, not ${runs}\\.`)) }));
    }
    expect(parseEvalArgs(['a.json', '--runs', '1000']).runs).toBe(MAX_EVAL_RUNS);
    for (const threshold of ['1.5', '-0.5', '-0', 'NaN', 'Infinity', '1e400', '2e-0', '0.5.5', '']) {
      expect(() => parseEvalArgs(['a.json', '--threshold', threshold])).toThrow(expect.objectContaining({ code: 'CLI_USAGE', message: expect.stringContaining(`--threshold must be a number from 0 to 1, not ${threshold}.`) }));
    }
    for (const [threshold, value] of [['0', 0], ['1', 1], ['.25', 0.25], ['1.', 1], ['5e-1', 0.5], ['0.5E0', 0.5]] as const) expect(parseEvalArgs(['a.json', '--threshold', threshold]).threshold).toBe(value);
    expect(EVAL_USAGE).toContain(`a whole number from 1 to ${MAX_EVAL_RUNS}`);
    expect(() => parseEvalArgs(['a.json', '--adk-answers', 'exact'])).toThrow(/--adk-answers takes only "ignore"/);
    expect(() => parseEvalArgs(['a.json', '--port', '1'])).toThrow(/Unknown option --port/);
    expect(() => parseEvalArgs(['a.json', '--runs', '2', '--runs', '5'])).toThrow(expect.objectContaining({ code: 'CLI_USAGE', message: expect.stringMatching(/^--runs is given twice\./) }));
    expect(() => parseEvalArgs(['a.json', '--json', '--json'])).toThrow(/^--json is given twice\./);
  });

  it('runs a JSON eval set against --agent: exit 0, the report on stdout, a line per run on stderr', async () => {
    const result = await runCli(['eval', join(FIXTURES, 'orders.json'), '--agent', SHOP_AGENT], FIXTURES);
    expect(result).toEqual({
      code: 0,
      stdout: 'Eval set Orders: 1 case\n✓ where-is  1/1 runs passed (threshold 100%)\n1 of 1 case passed.\n',
      stderr: '✓ where-is run 1\n',
    });
  });

  it('runs a module that exports the set, the agent and a judge model', async () => {
    const result = await runCli(['eval', join(FIXTURES, 'orders.evals.ts')], FIXTURES);
    expect(result.stdout).toBe(
      [
        'Eval set orders-module: 3 cases',
        '✓ greeting  1/1 runs passed (threshold 100%)',
        '✓ lookup  2/2 runs passed (threshold 100%)',
        '✓ small-refund  1/1 runs passed (threshold 100%)',
        '3 of 3 cases passed.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    // With --agent, the agent comes from that module and the judge, which it does not export, from the set's.
    const split = await runCli(['eval', join(FIXTURES, 'orders.evals.ts'), '--agent', SHOP_AGENT], FIXTURES);
    expect(split).toMatchObject({ code: 0, stdout: expect.stringContaining('3 of 3 cases passed.') });
  });

  it('exits 1 below the threshold, with the diff; --runs and --threshold override the set', async () => {
    const failing = await runCli(['eval', join(FIXTURES, 'wrong.json'), '--agent', SHOP_AGENT], FIXTURES);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain(
      [
        '✗ refund-expected  0/2 runs passed (threshold 100%)',
        '    run 1',
        '      turn 1 "Where is A-1?"',
        '        tools (inOrder)',
        '          ✗ lookupOrder(orderId: "A-2", …) ≠ lookupOrder({"orderId":"A-1"}): args.orderId: "A-1" does not match "A-2"',
        '          ✗ missing refund(…)',
        '        answer exact "Order A-1 has shipped.": ✓',
      ].join('\n'),
    );
    const json = await runCli(['eval', join(FIXTURES, 'wrong.json'), '--agent', SHOP_AGENT, '--json', '--runs', '3', '--threshold', '0'], FIXTURES);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ setId: 'wrong', pass: true, cases: [{ id: 'refund-expected', runs: 3, passedRuns: 0, threshold: 0 }] });
    expect(json.stderr).toBe('✗ refund-expected run 1\n✗ refund-expected run 2\n✗ refund-expected run 3\n');
  });

  it("reads ADK's eval set files; --adk-answers ignore leaves their recorded answers out", async () => {
    const exact = await runCli(['eval', join(FIXTURES, 'orders.evalset.json'), '--agent', SHOP_AGENT], FIXTURES);
    expect(exact.code).toBe(1);
    expect(exact.stdout).toContain('answer exact "A-1 is on its way.": ✗ the answer is "Order A-1 has shipped."');
    const ignored = await runCli(['eval', join(FIXTURES, 'orders.evalset.json'), '--agent', SHOP_AGENT, '--adk-answers', 'ignore'], FIXTURES);
    expect(ignored).toMatchObject({ code: 0, stdout: expect.stringContaining('✓ where-is  1/1 runs passed') });
  });

  it('exits 2 with the error code when the set or the agent cannot be used', async () => {
    expect(await runCli(['eval', join(FIXTURES, 'orders.json')], FIXTURES)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/is a JSON eval set: say which agent to run with --agent <module>.*\[CLI_USAGE\]/s),
    });
    expect(await runCli(['eval', join(FIXTURES, 'missing.json'), '--agent', SHOP_AGENT], FIXTURES)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Cannot read the eval set .*missing\.json.*\[EVAL_SET_NOT_FOUND\]/s),
    });
    expect(await runCli(['eval', join(FIXTURES, 'orders.json'), '--agent', 'nope.ts'], FIXTURES)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('[AGENT_MODULE_NOT_FOUND]'),
    });
    expect(await runCli(['eval', '--help'], FIXTURES)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: toolsmith eval <evalset>/) });
    // A folder, or a module set that does not exist (with or without --agent), is a set that cannot be read.
    for (const args of [[FIXTURES, '--agent', SHOP_AGENT], [FIXTURES], ['nope.evals.ts'], ['nope.evals.ts', '--agent', SHOP_AGENT]]) {
      const result = await runCli(['eval', ...args], FIXTURES);
      expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/Cannot read the eval set .*: (it is a folder, not a file|no such file).*\[EVAL_SET_NOT_FOUND\]/s) });
      expect(result.stderr).not.toContain('Require stack');
    }
  });

  it('exits 1 (a failed case, not a crash) when an argument matcher throws: its turn fails saying why, and the other case runs', async () => {
    const result = await runCli(['eval', join(FIXTURES, 'throwing-matcher.evals.ts')], FIXTURES);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('args.orderId: the function brokenCheck threw: cannot check B-7');
    expect(result.stdout).toContain('✓ greeting  1/1 runs passed');
    expect(result.stdout).toContain('1 of 2 cases passed.');
  });

  it('runs as a real process from the compiled CLI: exit code and --json', async () => {
    const bin = join(CLI_ROOT, 'dist', 'bin.js');
    // The compiled CLI must be current: build it (incremental, quick when `npm test` already built it).
    spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', CLI_ROOT], { stdio: 'ignore' });
    expect(existsSync(bin)).toBe(true);
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, [bin, 'eval', ...args], { cwd: FIXTURES });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => done({ code, stdout, stderr }));
      });
    const [failing, passing] = await Promise.all([run(['wrong.json', '--agent', SHOP_AGENT, '--json']), run(['orders.json', '--agent', SHOP_AGENT])]);
    expect(failing.code).toBe(1);
    const report = JSON.parse(failing.stdout) as { pass: boolean; cases: Array<{ results: Array<{ turns: Array<{ trajectory: { diff: Array<{ kind: string }> } }> }> }> };
    expect(report.pass).toBe(false);
    expect(report.cases[0].results[0].turns[0].trajectory.diff.map((line) => line.kind)).toEqual(['mismatch', 'missing']);
    expect(passing).toMatchObject({ code: 0, stdout: expect.stringContaining('1 of 1 case passed.') });
  }, 120_000);
});
