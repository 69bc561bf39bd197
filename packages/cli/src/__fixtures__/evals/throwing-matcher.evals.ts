// An eval set module whose argument matcher throws: for the test that the case fails saying why, the
// other case still runs, and `toolsmith eval` exits 1 (a failed case), not 70 (a crash).
import type { EvalSet } from '@toolsmith/evals';

export { agent } from './orders.evals';

function brokenCheck(value: unknown): boolean {
  throw new TypeError(`cannot check ${String(value)}`);
}

export const evalSet: EvalSet = {
  id: 'throwing-matcher',
  cases: [
    { id: 'broken', turns: [{ user: 'Where is B-7?', tools: { calls: [{ name: 'lookupOrder', args: { orderId: brokenCheck } }] } }] },
    { id: 'greeting', turns: [{ user: 'Hello', answer: { contains: 'Hello' } }] },
  ],
};
