import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type ConfirmationRequest, REQUEST_CONFIRMATION } from '@toolsmith/core';
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

  it('runs on a policy when there is no terminal', async () => {
    const { payments } = await run(policyApprover(500));
    expect(payments.refunds.map((r) => r.approvedBy)).toEqual([undefined, 'refund policy']);
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
  it('asks at the prompt: y approves with the approver name, anything else denies', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const { approve, close } = terminalApprover(input, output, 'Sam');
    const request: ConfirmationRequest = {
      call: { id: 'q', name: REQUEST_CONFIRMATION, args: {} },
      originalFunctionCall: { id: 'c', name: 'refund', args: { orderId: 'A-1', amount: 300 } },
    };

    const first = approve(request);
    input.write('y\n');
    await expect(first).resolves.toEqual({ confirmed: true, payload: { approver: 'Sam' } });
    const second = approve(request);
    input.write('nope\n');
    await expect(second).resolves.toEqual({ confirmed: false });
    close();
    expect(shown).toContain('Approve refund({"orderId":"A-1","amount":300})? [y/N] ');
  });
});
