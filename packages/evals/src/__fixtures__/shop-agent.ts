// An offline shop agent for the evals tests (ScriptedModel): it looks orders up, refunds (approval above
// 100) and answers from the results. Its script reads the request, so any number of runs replay the
// same behaviour; `behaviour.variant` switches it to make the mistakes the tests look for.
import { LlmAgent, type LlmRequest, Param, Tool, Toolset } from '@toolsmith/core';
import { ScriptedModel, type ScriptedTurn } from '@toolsmith/core/testing';

/** How the scripted model behaves; tests change it between runs. */
export const behaviour: { variant: 'good' | 'wrong-order' | 'extra-call' | 'no-lookup' | 'fail' | 'sloppy-every-other'; runs: number } = {
  variant: 'good',
  runs: 0,
};

@Toolset()
export class ShopTools {
  @Tool({ description: 'Looks an order up by id.' })
  lookupOrder(@Param('orderId') orderId: string) {
    return { orderId, status: 'shipped', total: 120 };
  }

  @Tool({ description: 'Refunds an amount of an order.', requireConfirmation: (args: { amount: number }) => args.amount > 100 })
  refund(@Param('orderId') orderId: string, @Param('amount') amount: number) {
    return { orderId, refunded: amount };
  }

  @Tool({ description: 'Notes something about the customer.' })
  note(@Param('text') text: string) {
    return { noted: text };
  }
}

/** The scripted model's choice for a request: calls for a new question, an answer from tool results. */
export function shopTurn(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  const question = last.parts.map((p) => p.text ?? '').join('');
  if (last.role === 'user' && question) {
    if (/^Where is/.test(question)) behaviour.runs++;
    const orderId = /[A-Z]-\d+/.exec(question)?.[0] ?? 'A-0';
    const variant = behaviour.variant === 'sloppy-every-other' ? (behaviour.runs % 2 === 0 ? 'extra-call' : 'good') : behaviour.variant;
    if (variant === 'fail') return new Error('scripted provider failure');
    if (/^Hello/.test(question)) return 'Hello! How can I help with your order?';
    if (/^Refund/.test(question)) return { calls: [{ name: 'refund', args: { orderId, amount: /big/.test(question) ? 250 : 20 } }] };
    if (/^Report/.test(question)) return `{"orderId":"${orderId}","status":"shipped"}`;
    if (variant === 'no-lookup') return 'I cannot look that up.';
    if (variant === 'wrong-order') return { calls: [{ name: 'note', args: { text: 'asked' } }, { name: 'lookupOrder', args: { orderId } }] };
    if (variant === 'extra-call') return { calls: [{ name: 'lookupOrder', args: { orderId } }, { name: 'note', args: { text: 'asked' } }] };
    return { calls: [{ name: 'lookupOrder', args: { orderId } }] };
  }
  const results = last.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse!.response as Record<string, unknown>);
  const order = results.find((r) => 'status' in r);
  if (order) return `Order ${String(order.orderId)} has ${String(order.status)}.`;
  const refund = results.find((r) => 'refunded' in r);
  if (refund) return `Refunded ${String(refund.refunded)} on ${String(refund.orderId)}.`;
  return 'Done.';
}

/** A new shop agent on its own scripted model. */
export function shopAgent(): LlmAgent {
  return new LlmAgent({ name: 'shop', model: new ScriptedModel((request) => shopTurn(request)), tools: [ShopTools], instruction: 'Help with orders.' });
}

/** What `toolsmith eval` loads: the agent. */
export const agent = shopAgent();
