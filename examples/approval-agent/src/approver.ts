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
 * Asks at a terminal prompt: `y`/`yes` approves (with the approver's name in the payload), anything
 * else denies. Returns the approver and a `close` for the prompt.
 */
export function terminalApprover(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
  approver = 'terminal user',
): { approve: Approver; close: () => void } {
  const prompt = createInterface({ input, output, terminal: false });
  const approve: Approver = async (request) => {
    const reply = await prompt.question(`  ${describeRequest(request)} [y/N] `);
    const confirmed = /^\s*y(es)?\s*$/i.test(reply);
    return confirmed ? { confirmed, payload: { approver } } : { confirmed };
  };
  return { approve, close: () => prompt.close() };
}

/** Without a terminal: approves amounts up to `limit` and denies the rest, as a policy would. */
export function policyApprover(limit: number, approver = 'refund policy'): Approver {
  return async (request) => {
    const amount = Number((request.originalFunctionCall.args as { amount?: unknown }).amount);
    return amount <= limit ? { confirmed: true, payload: { approver } } : { confirmed: false };
  };
}
