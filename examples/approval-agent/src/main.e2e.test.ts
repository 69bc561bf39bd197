import { PassThrough } from 'node:stream';
import { type ConfirmationRequest, REQUEST_CONFIRMATION } from '@toolsmith/core';
import { type Approver, policyApprover, terminalApprover } from './approver';
import { main } from './main';

async function run(approver: Approver) {
  const lines: string[] = [];
  const asked: ConfirmationRequest[] = [];
  const payments = await main({
    env: {},
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
    expect(out).toMatch(/… paused; session saved \(\d+ bytes of JSON\) and loaded into a new Runner/);
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

  it('runs on a policy when there is no terminal', async () => {
    const { payments } = await run(policyApprover(500));
    expect(payments.refunds.map((r) => r.approvedBy)).toEqual([undefined, 'refund policy']);
  });

  it('says so when stdin is not a terminal, instead of ignoring piped answers quietly', async () => {
    const lines: string[] = [];
    const isTTY = process.stdin.isTTY;
    Object.defineProperty(process.stdin, 'isTTY', { value: undefined, configurable: true });
    try {
      await main({ env: {}, print: (line) => lines.push(line) });
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
