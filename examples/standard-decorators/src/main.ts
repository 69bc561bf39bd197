import { type Content, type Event, LlmAgent, REQUEST_CONFIRMATION, Runner, confirmationRequests, confirmationResponse } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { OrderTools } from './order-tools';

/** The scripted model: a lookup, a call with a reason the schema refuses, the corrected call (it asks for approval), the answer. */
export function createOrderModel(): ScriptedModel {
  return new ScriptedModel([
    { calls: [{ name: 'orders_getOrder', args: { orderId: 'A-1001' } }] },
    { calls: [{ name: 'orders_cancelOrder', args: { orderId: 'A-1001', reason: 'bored' } }] },
    { calls: [{ name: 'orders_cancelOrder', args: { orderId: 'A-1001', reason: 'changed_mind' } }] },
    'Order A-1001 is cancelled.',
  ]);
}

/** The agent: the standard-decorator toolset, built by the runner's container with its OrderStore and Clock. */
export function createOrderAgent(): LlmAgent {
  return new LlmAgent({ name: 'support', model: createOrderModel(), instruction: 'You help customers with their orders.', tools: [OrderTools] });
}

/** One line per call, result, approval request and answer. */
function describe(event: Event): string[] {
  const lines: string[] = [];
  for (const part of event.content?.parts ?? []) {
    // The approval request is printed by runOrderSupport, as `approve …`.
    if (part.functionCall && part.functionCall.name !== REQUEST_CONFIRMATION) lines.push(`call ${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}`);
    if (part.functionResponse) {
      const response = part.functionResponse.response as { error?: { code?: string }; status?: string };
      lines.push(response.error ? `error ${part.functionResponse.name} ${response.error.code}` : `result ${part.functionResponse.name} ${response.status}`);
    }
  }
  if (event.errorCode) lines.push(`error ${event.errorCode}: ${event.errorMessage}`);
  else if (event.isFinalResponse() && event.text()) lines.push(`agent ${event.text()}`);
  return lines;
}

/** Runs the conversation offline; the approval is given by the program. Returns the printed lines. */
export async function runOrderSupport(): Promise<string[]> {
  const runner = new Runner({ appName: 'orders', agent: createOrderAgent() });
  const lines: string[] = [];
  let newMessage: Content = { role: 'user' as const, parts: [{ text: 'Please cancel my order A-1001.' }] };
  for (let turn = 0; turn < 2; turn++) {
    let pending: ReturnType<typeof confirmationRequests>[number] | undefined;
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) {
      lines.push(...describe(event));
      pending ??= confirmationRequests(event)[0];
    }
    if (!pending) break;
    lines.push(`approve ${pending.originalFunctionCall.name}: ${pending.hint}`);
    newMessage = confirmationResponse(pending.call, { confirmed: true });
  }
  await runner.close();
  return lines;
}

if (require.main === module) {
  runOrderSupport().then(
    (lines) => {
      for (const line of lines) console.log(line);
      if (lines.some((line) => line.startsWith('error ') && !line.includes('INVALID_ARGUMENTS'))) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
