import { type AskResult, type ConfirmationRequest, LlmAgent, type Model, Runner, confirmationResponsePart } from '@toolsmith/core';
import { RefundTools, lookUpOrder } from './shop-tools';

/** The agent and its runner, on the model it is given (a provider's, or a ScriptedModel in tests). */
export function shopRunner(model: Model) {
  const agent = new LlmAgent({
    name: 'clerk',
    model,
    instruction: 'You help customers with their orders.',
    tools: [lookUpOrder, RefundTools],
  });
  return new Runner({ appName: 'shop', agent });
}

/** One message to the end: each confirmation the run asks for is answered by `approve`, then the run goes on. */
export async function askWithApproval(runner: Runner, sessionId: string, text: string, approve: (request: ConfirmationRequest) => boolean): Promise<AskResult> {
  const ids = { userId: 'u1', sessionId };
  let result = await runner.ask({ ...ids, newMessage: { role: 'user', parts: [{ text }] } });
  while (result.pending.confirmations.length > 0) {
    const parts = result.pending.confirmations.map((request) => confirmationResponsePart(request, { confirmed: approve(request) }));
    result = await runner.ask({ ...ids, newMessage: { role: 'user', parts } });
  }
  return result;
}
