import { type Content, type Event, InMemorySessionService, LlmAgent, Runner, confirmationRequests, confirmationResponse, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { behaviour, shopAgent } from './__fixtures__/shop-agent';
import { evalCaseFromSession } from './eval-case-from-session';
import type { EvalSet } from './eval-set';
import { runEvalSet } from './run-eval-set';

const text = (value: string): Content => ({ role: 'user', parts: [{ text: value }] });

/** A stored session of the shop agent: a greeting, a lookup, a refund approved after a pause. */
async function recordedSession() {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'shop-app', agent: shopAgent(), sessionService });
  const send = async (newMessage: Content) => {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'ada', sessionId: 's1', newMessage })) events.push(event);
    return events;
  };
  await send(text('Hello'));
  await send(text('Where is A-7?'));
  const paused = await send(text('Refund big A-7'));
  const [request] = paused.flatMap((event) => confirmationRequests(event));
  await send(confirmationResponse(request, { confirmed: true }));
  return (await sessionService.getSession({ appName: 'shop-app', userId: 'ada', sessionId: 's1' }))!;
}

beforeEach(() => {
  behaviour.variant = 'good';
  behaviour.runs = 0;
});

describe('evalCaseFromSession', () => {
  it('turns each user message into a turn expecting the calls made and the answer given', async () => {
    const session = await recordedSession();
    const recorded = evalCaseFromSession(session, { id: 'desk' });
    const invocations = session.events.filter((e) => e.author === 'user').map((e) => e.invocationId);
    expect(recorded).toEqual({
      id: 'desk',
      userId: 'ada',
      appName: 'shop-app',
      turns: [
        { id: invocations[0], createdAt: expect.any(Number), user: 'Hello', tools: { match: 'exact', calls: [] }, answer: { exact: 'Hello! How can I help with your order?' } },
        {
          id: invocations[1],
          createdAt: expect.any(Number),
          user: 'Where is A-7?',
          tools: { match: 'exact', calls: [{ name: 'lookupOrder', args: { orderId: 'A-7' }, exactArgs: true }] },
          answer: { exact: 'Order A-7 has shipped.' },
        },
        // The confirmation request and the approval are not turns: the approved call and its answer belong to the refund turn.
        {
          id: invocations[2],
          createdAt: expect.any(Number),
          user: 'Refund big A-7',
          tools: { match: 'exact', calls: [{ name: 'refund', args: { orderId: 'A-7', amount: 250 }, exactArgs: true }] },
          answer: { exact: 'Refunded 250 on A-7.' },
        },
      ],
    });
    expect(recorded.turns[0].createdAt).toBe(session.events[0].timestamp / 1000);
    expect(evalCaseFromSession(session, { answers: 'none', match: 'superset', initialState: { tier: 'gold' } })).toMatchObject({
      id: 's1',
      initialState: { tier: 'gold' },
      turns: [{ tools: { match: 'superset', calls: [] } }, { tools: { match: 'superset' } }, { tools: { match: 'superset' } }],
    });
    expect(evalCaseFromSession(session, { answers: 'none' }).turns.some((t) => t.answer)).toBe(false);
  });

  it('a recorded case passes on the same agent, and each matching mode judges a changed agent as it should', async () => {
    const recorded = evalCaseFromSession(await recordedSession(), { id: 'desk' });
    // The refund turn pauses for approval when replayed; the first two turns are the case.
    const twoTurns = { ...recorded, turns: recorded.turns.slice(0, 2) };
    const set = (match: 'exact' | 'inOrder' | 'superset' | 'anyOrder' | 'subset'): EvalSet => ({
      id: 'recorded',
      cases: [{ ...twoTurns, turns: twoTurns.turns.map((turn) => ({ ...turn, tools: { ...turn.tools!, match } })) }],
    });
    expect((await runEvalSet(set('exact'), { agent: shopAgent() })).pass).toBe(true);

    // Now the agent notes something before it looks the order up.
    behaviour.variant = 'wrong-order';
    const verdicts: Record<string, boolean> = {};
    for (const match of ['exact', 'inOrder', 'anyOrder', 'superset', 'subset'] as const) verdicts[match] = (await runEvalSet(set(match), { agent: shopAgent() })).pass;
    expect(verdicts).toEqual({ exact: false, inOrder: true, anyOrder: false, superset: true, subset: false });
    // Replayed whole, the refund turn pauses: the run says so.
    behaviour.variant = 'good';
    const whole = await runEvalSet({ id: 'whole', cases: [recorded] }, { agent: shopAgent() });
    expect(whole.cases[0].results[0].turns[2]).toMatchObject({ pass: false, pausedOn: ['confirmation of refund'] });
  });
});

describe('evalCaseFromSession: arguments sent as JSON text', () => {
  /** An agent whose model sends `lookupOrder` its arguments as this text, then answers. */
  const textCalling = (argsText: string) => {
    const lookup = functionTool<{ orderId: string }>({
      name: 'lookupOrder',
      description: 'Looks an order up',
      parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      execute: () => ({ status: 'shipped' }),
    });
    return new LlmAgent({ name: 'shop', tools: [lookup], model: new ScriptedModel((_r, i) => (i % 2 === 0 ? { calls: [{ name: 'lookupOrder', args: argsText }] } : 'Shipped.')) });
  };
  const recordedWith = async (argsText: string) => {
    const sessionService = new InMemorySessionService();
    const report = await runEvalSet({ id: 's', cases: [{ id: 'c', turns: [{ user: 'Where is A-1?' }] }] }, { agent: textCalling(argsText), sessionService });
    const session = await sessionService.getSession({ appName: 'shop', userId: 'eval-user', sessionId: report.cases[0].results[0].sessionId });
    return evalCaseFromSession(session!, { id: 'rec', answers: 'none' });
  };

  it('records the arguments the tool was run with, and a replay with others fails', async () => {
    const recorded = await recordedWith('{"orderId":"A-1"}');
    expect(recorded.turns[0].tools!.calls).toEqual([{ name: 'lookupOrder', args: { orderId: 'A-1' }, exactArgs: true }]);
    expect((await runEvalSet({ id: 's', cases: [recorded] }, { agent: textCalling('{"orderId":"A-1"}') })).pass).toBe(true);
    expect((await runEvalSet({ id: 's', cases: [recorded] }, { agent: textCalling('{"orderId":"Z-999"}') })).pass).toBe(false);
  });

  it('records an argument holding a matcher-looking key as $equals of it, and the replay passes', async () => {
    const text = '{"orderId":"A-1","filter":[{"$pattern":"x"}]}';
    const recorded = await recordedWith(text);
    expect(recorded.turns[0].tools!.calls).toEqual([{ name: 'lookupOrder', args: { orderId: 'A-1', filter: { $equals: [{ $pattern: 'x' }] } }, exactArgs: true }]);
    expect((await runEvalSet({ id: 's', cases: [recorded] }, { agent: textCalling(text) })).pass).toBe(true);
  });

  it('records text the executor refused as that text: only the same malformed call matches it', async () => {
    const recorded = await recordedWith('{"orderId": "A-');
    expect(recorded.turns[0].tools!.calls).toEqual([{ name: 'lookupOrder', argsText: '{"orderId": "A-' }]);
    expect((await runEvalSet({ id: 's', cases: [recorded] }, { agent: textCalling('{"orderId": "A-') })).pass).toBe(true);
    const valid = await runEvalSet({ id: 's', cases: [recorded] }, { agent: textCalling('{"orderId":"A-1"}') });
    expect(valid.pass).toBe(false);
    expect(valid.cases[0].results[0].turns[0].trajectory!.diff[0]).toMatchObject({ problems: ['its arguments are {"orderId":"A-1"}, not the malformed text {"orderId": "A-'] });
    expect((await runEvalSet({ id: 's', cases: [recorded] }, { agent: textCalling('{"orderId": "Z-') })).pass).toBe(false);
  });
});

describe('evalCaseFromSession: a call that failed', () => {
  it('records it as failed: true (a refused confirmation, a tool that threw), and the replay passes only when it fails again', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'shop-app', agent: shopAgent(), sessionService });
    const send = async (newMessage: Content) => {
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'ada', sessionId: 's2', newMessage })) events.push(event);
      return events;
    };
    const paused = await send(text('Refund big A-7'));
    const [request] = paused.flatMap((event) => confirmationRequests(event));
    await send(confirmationResponse(request, { confirmed: false }));
    const session = (await sessionService.getSession({ appName: 'shop-app', userId: 'ada', sessionId: 's2' }))!;
    expect(evalCaseFromSession(session).turns[0].tools!.calls).toEqual([{ name: 'refund', args: { orderId: 'A-7', amount: 250 }, exactArgs: true, failed: true }]);

    let declined = true;
    const pay = functionTool({
      name: 'pay',
      description: 'Pays',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        if (declined) throw new Error('the card was declined');
        return { paid: true };
      },
    });
    const agent = () => new LlmAgent({ name: 'shop', tools: [pay], model: new ScriptedModel((_r, i) => (i % 2 === 0 ? { calls: [{ name: 'pay', args: {} }] } : 'Done.')) });
    const recording = new InMemorySessionService();
    const first = await runEvalSet({ id: 's', cases: [{ id: 'c', turns: [{ user: 'Pay' }] }] }, { agent: agent(), sessionService: recording });
    const recorded = evalCaseFromSession((await recording.getSession({ appName: 'shop', userId: 'eval-user', sessionId: first.cases[0].results[0].sessionId }))!, { answers: 'none' });
    expect(recorded.turns[0].tools!.calls).toEqual([{ name: 'pay', args: {}, exactArgs: true, failed: true }]);
    expect((await runEvalSet({ id: 's', cases: [recorded] }, { agent: agent() })).pass).toBe(true);
    declined = false;
    expect((await runEvalSet({ id: 's', cases: [recorded] }, { agent: agent() })).pass).toBe(false);
  });
});

describe('evalCaseFromSession: arguments the executor repaired', () => {
  it('records the values the tool was run with', async () => {
    const order = functionTool({
      name: 'order',
      description: 'Orders',
      parameters: { type: 'object', properties: { count: { type: 'integer' }, size: { enum: ['small', 'large'] }, note: { type: 'string' } }, required: ['count'] },
      execute: () => ({ ok: true }),
    });
    const agent = new LlmAgent({ name: 'shop', tools: [order], model: new ScriptedModel((_r, i) => (i % 2 === 0 ? { calls: [{ name: 'order', args: '{"count":"5","size":"LARGE","note":null}' }] } : 'Ordered.')) });
    const sessionService = new InMemorySessionService();
    const report = await runEvalSet({ id: 's', cases: [{ id: 'c', turns: [{ user: 'Order' }] }] }, { agent, sessionService });
    const session = await sessionService.getSession({ appName: 'shop', userId: 'eval-user', sessionId: report.cases[0].results[0].sessionId });
    expect(evalCaseFromSession(session!, { answers: 'none' }).turns[0].tools!.calls).toEqual([{ name: 'order', args: { count: 5, size: 'large' }, exactArgs: true }]);
  });
});
