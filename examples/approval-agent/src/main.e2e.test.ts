import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type ConfirmationAnswer, type ConfirmationRequest, REQUEST_CONFIRMATION } from '@toolsmith/core';
import { type Approver, policyApprover, terminalApprover } from './approver';
import { type DemoMode, main, modeFromArgs } from './main';

// One embedded database directory for the file (created once; each demo run starts its own conversation).
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'approval-demo-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function run(approver: Approver, mode: DemoMode = 'all') {
  const lines: string[] = [];
  const asked: ConfirmationRequest[] = [];
  const payments = await main({
    env: {},
    dataDir,
    mode,
    print: (line) => lines.push(line),
    approver: (request) => {
      asked.push(request);
      return approver(request);
    },
  });
  return { out: lines.join('\n'), lines, asked, payments };
}

describe('approval-agent demo (offline)', () => {
  it('refunds small amounts at once, asks for larger ones, pays the approved one and not the denied one', async () => {
    const decisions = [true, false];
    const { out, lines, asked, payments } = await run(async () => ({ confirmed: decisions.shift()!, payload: { approver: 'Dana' } }));

    expect(lines[0]).toContain('offline');
    // Only the two refunds above the threshold were put to the approver, each with the call that waits.
    expect(asked.map((r) => [r.call.name, r.originalFunctionCall.name, r.originalFunctionCall.args])).toEqual([
      [REQUEST_CONFIRMATION, 'refund', { orderId: 'A-1002', amount: 250 }],
      [REQUEST_CONFIRMATION, 'refund', { orderId: 'A-1003', amount: 900 }],
    ]);
    expect(out).toContain(`User: Refund 40 for order A-1001
  → refund({"orderId":"A-1001","amount":40})
  ← refund: {"status":"refunded","orderId":"A-1001","amount":40}
Agent: Refunded 40 € for order A-1001.`);
    expect(out).toMatch(/→ toolsmith_request_confirmation\(\{"originalFunctionCall":\{"id":"[^"]+","name":"refund","args":\{"orderId":"A-1002","amount":250\}\}/);
    expect(out).toContain('… paused; the store was closed and reopened, and a new Runner answers from the stored session');
    expect(out).toContain(`  ← refund: {"status":"refunded","orderId":"A-1002","amount":250,"approvedBy":"Dana"}
Agent: Refunded 250 € for order A-1002 (approved by Dana).`);
    expect(out).toContain('  ✘ denied: Approve refund({"orderId":"A-1003","amount":900})?');
    expect(out).toContain('  ← refund failed: {"error":{"code":"TOOL_CALL_REJECTED"');
    expect(out).toContain('Agent: The refund of 900 € for order A-1003 was not approved, so nothing was refunded.');
    expect(payments.refunds).toEqual([
      { orderId: 'A-1001', amount: 40 },
      { orderId: 'A-1002', amount: 250, approvedBy: 'Dana' },
    ]);
  });

  it('pauses in one run (--pause) and is approved by the next one (--resume), which then sends the rest', async () => {
    expect([modeFromArgs(['--pause']), modeFromArgs(['--resume']), modeFromArgs([])]).toEqual(['until-pause', 'resume', 'all']);
    const paused = await run(async () => ({ confirmed: true }), 'until-pause');
    expect(paused.asked).toEqual([]);
    expect(paused.payments.refunds).toEqual([{ orderId: 'A-1001', amount: 40 }]);
    expect(paused.out).toContain('Approve or deny it later with: npm run approval -- --resume');

    const decisions = [true, false];
    const resumed = await run(async () => ({ confirmed: decisions.shift()!, payload: { approver: 'Dana' } }), 'resume');
    expect(resumed.asked.map((r) => r.originalFunctionCall.args)).toEqual([
      { orderId: 'A-1002', amount: 250 },
      { orderId: 'A-1003', amount: 900 },
    ]);
    expect(resumed.out).toContain('Resuming the stored session: 1 request(s) wait for an answer.');
    expect(resumed.out).toContain('Agent: Refunded 250 € for order A-1002 (approved by Dana).');
    expect(resumed.payments.refunds).toEqual([{ orderId: 'A-1002', amount: 250, approvedBy: 'Dana' }]);

    const nothing = await run(async () => ({ confirmed: true }), 'resume');
    expect(nothing.out).toContain('Nothing waits for an approval');
  });

  it('runs on a policy when there is no terminal: it rejects what is above its limit, and the model reads why', async () => {
    const { payments, out } = await run(policyApprover(500));
    expect(payments.refunds.map((r) => r.approvedBy)).toEqual([undefined, 'refund policy']);
    expect(out).toContain('  ✘ denied ("Refunds above 500 € need a manager."): Approve refund({"orderId":"A-1003","amount":900})?');
    expect(out).toContain('Agent: The refund of 900 € for order A-1003 was not approved: Refunds above 500 € need a manager.');
  });

  it('an edit runs with the person\'s arguments (one the schema refuses is asked again), and an answer can stand in for the refund', async () => {
    const decisions: ConfirmationAnswer[] = [
      { decision: 'edit', args: { orderId: 'A-1002', amount: 'two hundred' } },
      { decision: 'edit', args: { orderId: 'A-1002', amount: 200 }, payload: { approver: 'Dana' } },
      { decision: 'respond', result: { answer: 'Store credit of 900 € issued instead.' } },
    ];
    const { out, asked, payments } = await run(async () => decisions.shift()!);
    expect(asked.map((r) => r.originalFunctionCall.args)).toEqual([
      { orderId: 'A-1002', amount: 250 },
      { orderId: 'A-1002', amount: 250 },
      { orderId: 'A-1003', amount: 900 },
    ]);
    expect(out).toContain('  ! CONFIRMATION_EDIT_INVALID');
    expect(out).toContain('  ✎ approved with {"orderId":"A-1002","amount":200}: Approve refund({"orderId":"A-1002","amount":250})?');
    expect(out).toContain('Agent: Refunded 200 € for order A-1002 (approved by Dana, who changed the amount).');
    expect(out).toContain('  ↩ answered instead ({"answer":"Store credit of 900 € issued instead."})');
    expect(out).toContain('Agent: The approver answered instead: Store credit of 900 € issued instead.');
    expect(payments.refunds).toEqual([
      { orderId: 'A-1001', amount: 40 },
      { orderId: 'A-1002', amount: 200, approvedBy: 'Dana' },
    ]);
  });

  it('an edited refund that then fails is read as a failure (the response is { error, argumentsEditedByUser })', async () => {
    const decisions: ConfirmationAnswer[] = [
      { decision: 'edit', args: { orderId: 'A-1002', amount: 300 } },
      { decision: 'reject', message: 'Not today.' },
    ];
    const { out, payments } = await run(async () => decisions.shift()!);
    expect(out).toContain('Agent: Sorry, that did not work: ');
    expect(out).toContain('Order A-1002 has only 250 € left to refund');
    expect(payments.refunds).toEqual([{ orderId: 'A-1001', amount: 40 }]);
  });

  it('says so when stdin is not a terminal, instead of ignoring piped answers quietly', async () => {
    const lines: string[] = [];
    const isTTY = process.stdin.isTTY;
    Object.defineProperty(process.stdin, 'isTTY', { value: undefined, configurable: true });
    try {
      await main({ env: {}, dataDir, messages: [], print: (line) => lines.push(line) });
    } finally {
      Object.defineProperty(process.stdin, 'isTTY', { value: isTTY, configurable: true });
    }
    expect(lines[0]).toContain('stdin is not a terminal');
  });
});

describe('terminalApprover', () => {
  it('asks at the prompt: y approves with the approver name, n rejects (with the reason after it), e edits, r answers instead, anything else rejects', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const { approve, close } = terminalApprover(input, output, 'Sam');
    const request: ConfirmationRequest = {
      call: { id: 'q', name: REQUEST_CONFIRMATION, args: {} },
      originalFunctionCall: { id: 'c', name: 'refund', args: { orderId: 'A-1', amount: 300 } },
    };

    const answers: unknown[] = [];
    for (const line of ['y', 'nope', 'n Too much.', 'e {"orderId":"A-1","amount":100}', 'r Refunded by phone.']) {
      const next = approve(request);
      input.write(`${line}\n`);
      answers.push(await next);
    }
    // Not JSON: the prompt says so and asks again, and the next line answers.
    const hinted = new Promise<void>((resolve) => output.on('data', () => shown.includes('must be a JSON object') && resolve()));
    const edit = approve(request);
    input.write('e not json\n');
    await hinted;
    input.write('e {"orderId":"A-1","amount":120}\n');
    answers.push(await edit);
    close();
    expect(answers).toEqual([
      { decision: 'approve', payload: { approver: 'Sam' } },
      { decision: 'reject' },
      { decision: 'reject', message: 'Too much.' },
      { decision: 'edit', args: { orderId: 'A-1', amount: 100 }, payload: { approver: 'Sam' } },
      { decision: 'respond', result: { answer: 'Refunded by phone.' } },
      { decision: 'edit', args: { orderId: 'A-1', amount: 120 }, payload: { approver: 'Sam' } },
    ]);
    expect(shown).toContain('The edited arguments must be a JSON object');
    expect(shown).toContain('Approve refund({"orderId":"A-1","amount":300})? [y/N, n <why>, e <json args>, r <answer>] ');
  });
});
