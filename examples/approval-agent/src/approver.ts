import type { ConfirmationAnswer, ConfirmationRequest } from '@toolsmith/core';
import { createInterface } from 'node:readline/promises';

/** Decides one confirmation request: a person at a prompt, or a fixed policy. */
export type Approver = (request: ConfirmationRequest) => Promise<ConfirmationAnswer>;

/** What the person is asked, e.g. `Approve refund({"orderId":"A-1002","amount":250})?`. */
export function describeRequest(request: ConfirmationRequest): string {
  const call = request.originalFunctionCall;
  const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
  return `Approve ${call.name}(${args})?${request.hint ? ` (${request.hint})` : ''}`;
}

/**
 * Asks at a terminal prompt for one of the four decisions: `y` approves (with the approver's name in the
 * payload); `e <json>` approves with edited arguments (e.g. `e {"orderId":"A-1002","amount":100}`);
 * `r <text>` answers instead of the tool; anything else rejects, and `n <text>` tells the model why.
 * Returns the approver and a `close` for the prompt.
 */
export function terminalApprover(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
  approver = 'terminal user',
): { approve: Approver; close: () => void } {
  const prompt = createInterface({ input, output, terminal: false });
  const approve: Approver = async (request) => {
    for (;;) {
      const reply = await prompt.question(`  ${describeRequest(request)} [y/N, n <why>, e <json args>, r <answer>] `);
      const [, word = '', rest = ''] = /^\s*(\S*)\s*(.*?)\s*$/.exec(reply)!;
      if (/^y(es)?$/i.test(word) && rest === '') return { decision: 'approve', payload: { approver } };
      if (/^e(dit)?$/i.test(word)) {
        const args = parseObject(rest);
        if (args) return { decision: 'edit', args, payload: { approver } };
        output.write('  The edited arguments must be a JSON object, e.g. e {"orderId":"A-1002","amount":100}\n');
        continue;
      }
      if (/^r(espond)?$/i.test(word) && rest !== '') return { decision: 'respond', result: { answer: rest } };
      return /^no?$/i.test(word) && rest !== '' ? { decision: 'reject', message: rest } : { decision: 'reject' };
    }
  };
  return { approve, close: () => prompt.close() };
}

/**
 * Without a terminal: approves amounts up to `limit` and rejects the rest with the reason, which the
 * model reads, as a policy would.
 */
export function policyApprover(limit: number, approver = 'refund policy'): Approver {
  return async (request) => {
    const amount = Number((request.originalFunctionCall.args as { amount?: unknown }).amount);
    return amount <= limit ? { decision: 'approve', payload: { approver } } : { decision: 'reject', message: `Refunds above ${limit} € need a manager.` };
  };
}

/** A JSON object from the text, or undefined. */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
