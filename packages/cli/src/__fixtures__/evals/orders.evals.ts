// An eval set module for `toolsmith eval`'s tests: the set (with a RegExp and a function matcher), the
// agent it runs against (offline, on a ScriptedModel) and a judge model.
import { LlmAgent, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import type { EvalSet } from '@toolsmith/evals';

const lookupOrder = functionTool({
  name: 'lookupOrder',
  description: 'Looks an order up by id.',
  parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
  execute: (args: { orderId: string }) => ({ orderId: args.orderId, status: 'shipped' }),
});
const refund = functionTool({
  name: 'refund',
  description: 'Refunds an amount of an order.',
  parameters: { type: 'object', properties: { orderId: { type: 'string' }, amount: { type: 'number' } }, required: ['orderId', 'amount'] },
  execute: (args: { orderId: string; amount: number }) => ({ refunded: args.amount }),
});

/** Greets, looks B-… orders up and refunds 20: the calls follow the user's words, the answers the results. */
export const agent = new LlmAgent({
  name: 'desk',
  tools: [lookupOrder, refund],
  model: new ScriptedModel((request) => {
    const last = request.contents[request.contents.length - 1];
    const text = last.parts[0].text;
    if (text === 'Hello') return 'Hello there!';
    if (text?.startsWith('Where is')) return { calls: [{ name: 'lookupOrder', args: { orderId: /B-\d+/.exec(text)![0] } }] };
    if (text?.startsWith('Refund')) return { calls: [{ name: 'refund', args: { orderId: 'B-22', amount: 20 } }] };
    const result = last.parts[0].functionResponse!.response as { status?: string };
    return result.status ? `It has ${result.status}.` : 'Refunded.';
  }),
});

/** Grades every judged answer as passing, with a reason the report shows. */
export const judgeModel = new ScriptedModel(() => '{"pass": true, "reason": "It greets the user."}');

export const evalSet: EvalSet = {
  id: 'orders-module',
  cases: [
    {
      id: 'greeting',
      turns: [{ user: 'Hello', tools: { calls: [] }, answer: { judge: 'greets the user' } }],
    },
    {
      id: 'lookup',
      runs: 2,
      turns: [{ user: 'Where is B-22?', tools: { calls: [{ name: 'lookupOrder', args: { orderId: /^B-\d+$/ } }] }, answer: { contains: 'shipped' } }],
    },
    {
      id: 'small-refund',
      turns: [{ user: 'Refund B-22', tools: { match: 'superset', calls: [{ name: 'refund', args: { amount: (value: unknown) => typeof value === 'number' && value <= 100 } }] } }],
    },
  ],
};
