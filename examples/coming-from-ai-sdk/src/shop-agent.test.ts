import { describe, expect, it } from '@jest/globals';
import { ScriptedModel } from '@toolsmith/core/testing';
import { askWithApproval, shopRunner } from './shop-agent';

// docs/coming-from-ai-sdk.md: the Toolsmith side of the page, run on ScriptedModel.
describe('the shop agent of docs/coming-from-ai-sdk.md', () => {
  it('looks up an order, asks before a refund above 100, and refunds once approved', async () => {
    const model = new ScriptedModel([
      { calls: [{ name: 'lookUpOrder', args: { orderId: 'A-1002' } }] },
      { calls: [{ name: 'refund', args: { orderId: 'A-1002', amount: 250 } }] },
      'Refunded 250 € on order A-1002.',
    ]);
    const runner = shopRunner(model);
    const asked: string[] = [];
    const result = await askWithApproval(runner, 's1', 'Refund order A-1002 in full.', (request) => {
      asked.push(`${request.hint} ${JSON.stringify(request.originalFunctionCall.args)}`);
      return true;
    });
    expect(asked).toEqual(['Refund 250 € on order A-1002? {"orderId":"A-1002","amount":250}']);
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('Refunded 250 € on order A-1002.');
    const responses = result.events.flatMap((event) => event.functionResponses()).map(({ name, response }) => ({ name, response }));
    expect(responses).toContainEqual({ name: 'refund', response: { refunded: 250, orderId: 'A-1002' } });
    expect(JSON.stringify(model.requests[1].contents)).toContain('"status":"delivered"');
    await runner.close();
  });

  it('does not refund when the user says no, and tells the model', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'refund', args: { orderId: 'A-1002', amount: 250 } }] }, 'The refund was not approved.']);
    const runner = shopRunner(model);
    const result = await askWithApproval(runner, 's2', 'Refund A-1002.', () => false);
    expect(result.text).toBe('The refund was not approved.');
    const responses = result.events.flatMap((event) => event.functionResponses()).map(({ name, response }) => ({ name, response }));
    expect(responses).toEqual([{ name: 'refund', response: { error: { code: 'TOOL_CALL_REJECTED', message: expect.stringContaining('The user rejected the call') } } }]);
    expect(JSON.stringify(model.requests[1].contents)).toContain('TOOL_CALL_REJECTED');
    await runner.close();
  });

  it('refunds 100 or less without asking', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'refund', args: { orderId: 'A-1001', amount: 40 } }] }, 'Done.']);
    const runner = shopRunner(model);
    const result = await askWithApproval(runner, 's3', 'Refund A-1001.', () => {
      throw new Error('nothing to approve');
    });
    expect(result.text).toBe('Done.');
    await runner.close();
  });

  it('tells the model, in zod’s words, what is wrong with its arguments', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'refund', args: { orderId: '1002', amount: -5 } }] }, 'Sorry.']);
    const runner = shopRunner(model);
    const result = await askWithApproval(runner, 's4', 'Refund 1002.', () => true);
    const [response] = result.events.flatMap((event) => event.functionResponses()).map(({ response }) => response);
    expect(response).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
    expect(JSON.stringify(response)).toMatch(/orderId: Invalid string: must match pattern .*amount: Too small: expected number to be >0/);
    expect(model.requests[0].tools?.map((tool) => tool.name)).toEqual(['lookUpOrder', 'refund']);
    await runner.close();
  });
});
