import { LlmAgent } from '../agents/llm-agent';
import { TRANSFER_TO_AGENT } from '../builtins/transfer-to-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse, confirmationResponsePart } from '../confirmation/confirmation-response';
import { REQUEST_CONFIRMATION, originalCallFrom } from '../confirmation/request-confirmation';
import { Param } from '../decorators/param.decorator';
import { MalformedConfirmationRequestError } from '../errors/malformed-confirmation-request-error';
import { Content, FunctionCall } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ToolConfirmation } from '../state/event-actions';
import { ScriptedModel } from '../testing/scripted-model';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { functionTool } from '../function-tool/function-tool';
import { onlyRequest, send, shownResponses } from './__fixtures__/confirmation-fixtures';
import { FnTool, user, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Records every refund that really happened, and the confirmation each one ran with. */
class Ledger {
  readonly refunds: Array<{ amount: number; confirmation?: ToolConfirmation }> = [];
}

@Toolset()
class PaymentTools {
  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Refunds an amount to the customer.', requireConfirmation: (args: { amount: number }) => args.amount > 100 })
  refund(@Param('amount') amount: number, ctx: ToolContext) {
    this.ledger.refunds.push({ amount, confirmation: ctx.toolConfirmation });
    return { refunded: amount };
  }
}

function setup(script: ConstructorParameters<typeof ScriptedModel>[0], extraTools: FnTool[] = []) {
  const ledger = new Ledger();
  const model = new ScriptedModel(script);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: 'shop',
    agent: new LlmAgent({ name: 'clerk', model, tools: [PaymentTools, ...extraTools] }),
    providers: [{ provide: Ledger, useValue: ledger }],
    sessionService,
  });
  const storedEvents = async () => (await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!.events;
  return { ledger, model, runner, storedEvents };
}

const bigRefund = { calls: [{ id: 'call-1', name: 'refund', args: { amount: 250 } }] };

describe('confirmation: requireConfirmation on @Tool', () => {
  it('runs a call at once when the predicate says no', async () => {
    const { ledger, runner } = setup([{ calls: [{ id: 'c', name: 'refund', args: { amount: 20 } }] }, 'Refunded 20.']);
    const events = await send(runner, user('refund 20'));
    expect(ledger.refunds).toEqual([{ amount: 20, confirmation: undefined }]);
    expect(events.at(-1)!.text()).toBe('Refunded 20.');
  });

  it('pauses a call the predicate gates: one REQUEST_CONFIRMATION call with its own id, and the invocation ends', async () => {
    const { ledger, model, runner } = setup([bigRefund, 'never reached']);

    const events = await send(runner, user('refund 250'));

    expect(ledger.refunds).toEqual([]);
    expect(model.callCount).toBe(1);
    expect(events).toHaveLength(2); // the model's call, then the request (nothing else ran)
    const request = events[1];
    const [call] = request.functionCalls();
    expect(call.name).toBe(REQUEST_CONFIRMATION);
    expect(call.id).not.toBe('call-1');
    expect(call.args).toEqual({
      originalFunctionCall: { id: 'call-1', name: 'refund', args: { amount: 250 } },
      toolConfirmation: { hint: 'Please approve or reject the call to tool "refund".' },
    });
    expect(request.author).toBe('clerk');
    expect(request.longRunningToolIds).toEqual([call.id]);
    expect(request.isFinalResponse()).toBe(true);
    expect(request.actions.requestedToolConfirmations).toHaveProperty('call-1');
    expect(confirmationRequests(request)).toEqual([
      { call, originalFunctionCall: { id: 'call-1', name: 'refund', args: { amount: 250 } }, hint: 'Please approve or reject the call to tool "refund".', askedBy: 'runner' },
    ]);
  });

  it('runs the original call once approved, with ctx.toolConfirmation set, and the model gets its response', async () => {
    const { ledger, model, runner } = setup([bigRefund, 'Refunded 250.']);
    const request = onlyRequest(await send(runner, user('refund 250')));

    const events = await send(runner, confirmationResponse(request, { confirmed: true, payload: { note: 'ok by manager' } }));

    expect(ledger.refunds).toEqual([
      { amount: 250, confirmation: { confirmed: true, hint: 'Please approve or reject the call to tool "refund".', payload: { note: 'ok by manager' } } },
    ]);
    expect(events.map((e) => e.author)).toEqual(['clerk', 'clerk']);
    expect(events[0].functionResponses()).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 250 } }]);
    expect(events[1].text()).toBe('Refunded 250.');
    const contents = model.requests[1].contents;
    expect(contents).toEqual([
      user('refund 250'),
      { role: 'model', parts: [{ functionCall: { id: 'call-1', name: 'refund', args: { amount: 250 } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'call-1', name: 'refund', response: { refunded: 250 } } }] },
    ]);
    expect(JSON.stringify(contents)).not.toContain(REQUEST_CONFIRMATION);
  });

  it('gives the model a rejection error when denied, and never runs the tool', async () => {
    const { ledger, model, runner } = setup([bigRefund, 'The refund was not approved.']);
    const request = onlyRequest(await send(runner, user('refund 250')));

    const events = await send(runner, confirmationResponse(request, { confirmed: false }));

    expect(ledger.refunds).toEqual([]);
    const [response] = events[0].functionResponses();
    expect(response).toEqual({
      id: 'call-1',
      name: 'refund',
      isError: true,
      response: { error: { code: 'TOOL_CALL_REJECTED', message: 'The user rejected the call. Do not retry it unless the user asks.' } },
    });
    expect(shownResponses(model.requests[1])).toEqual([response]);
    expect(events.at(-1)!.text()).toBe('The refund was not approved.');
  });

  it('asks when a rule answers any truthy value (args is any: a count, a string, an object, a promise of one); runs when it answers a falsy one', async () => {
    const answers: unknown[] = [2, 'yes', {}, Promise.resolve(1), 0, '', null, undefined, Promise.resolve(0)];
    const outcomes: string[] = [];
    for (const answer of answers) {
      const deleted: unknown[] = [];
      const deleteFiles = functionTool({
        name: 'deleteFiles',
        description: 'Deletes files.',
        parameters: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'], additionalProperties: false },
        // A loosely typed rule, as `args: any` lets one compile: its answer is not a boolean.
        requireConfirmation: (() => answer) as unknown as () => boolean,
        execute: (args: { paths: string[] }) => (deleted.push(args.paths), { deleted: args.paths.length }),
      });
      const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'deleteFiles', args: { paths: ['a', 'b'] } }] }, 'Done.']), tools: [deleteFiles] }) });
      const events = await send(runner, user('delete a and b'));
      outcomes.push(deleted.length === 0 && confirmationRequests(events.at(-1)!).length === 1 ? 'asked' : deleted.length === 1 ? 'ran' : 'other');
    }
    expect(outcomes).toEqual(['asked', 'asked', 'asked', 'asked', 'ran', 'ran', 'ran', 'ran', 'ran']);
  });

  it('pauses when the tool itself calls ctx.requestConfirmation, and runs it again with the answer', async () => {
    const seen: Array<ToolConfirmation | undefined> = [];
    const deleted: string[] = [];
    const cleanup = new FnTool('cleanup', (args, ctx) => {
      seen.push(ctx.toolConfirmation);
      const files = args.files as string[];
      if (!ctx.toolConfirmation && files.length > 2) {
        ctx.requestConfirmation({ hint: `Delete ${files.length} files?`, payload: { files } });
        return { status: 'waiting for approval' };
      }
      deleted.push(...files);
      return { deleted: files.length };
    });
    const files = ['a', 'b', 'c'];
    const { model, runner } = setup([{ calls: [{ id: 'del', name: 'cleanup', args: { files } }] }, 'Deleted.'], [cleanup]);

    const first = await send(runner, user('clean up'));
    const [request] = confirmationRequests(first.at(-1)!);
    expect(request).toMatchObject({ hint: 'Delete 3 files?', payload: { files }, originalFunctionCall: { id: 'del', name: 'cleanup' } });
    expect(deleted).toEqual([]);
    expect(first.flatMap((e) => e.functionResponses())).toEqual([]); // the tool's interim return value is not a response

    await send(runner, confirmationResponse(request.call, { confirmed: true }));
    expect(seen).toEqual([undefined, { confirmed: true, hint: 'Delete 3 files?' }]);
    expect(deleted).toEqual(files);
    expect(shownResponses(model.requests[1])).toEqual([{ id: 'del', name: 'cleanup', response: { deleted: 3 } }]);
  });
});

describe('confirmation: answers that are refused', () => {
  async function paused() {
    const context = setup([bigRefund, 'Refunded 250.']);
    const request = onlyRequest(await send(context.runner, user('refund 250')));
    const before = (await context.storedEvents()).length;
    return { ...context, request, before };
  }

  async function expectRefused(context: Awaited<ReturnType<typeof paused>>, answer: Content, code: string) {
    const events = await send(context.runner, answer);
    expect(events).toHaveLength(1);
    expect(events[0].errorCode).toBe(code);
    expect(events[0].isFinalResponse()).toBe(true);
    expect(context.ledger.refunds).toEqual([]);
    expect(context.model.callCount).toBe(1);
    // A refused message stores nothing: neither the message nor its error event (that goes to the caller only).
    expect(await context.storedEvents()).toHaveLength(context.before);
    return events[0];
  }

  it('refuses an answer for an id that was never requested (forged), and the real answer still works', async () => {
    const context = await paused();
    const forged = await expectRefused(context, confirmationResponse({ ...context.request, id: 'confirm-forged' }, { confirmed: true }), 'FUNCTION_RESPONSE_NOT_PENDING');
    expect(forged.errorMessage).toContain('"confirm-forged"');

    await send(context.runner, confirmationResponse(context.request, { confirmed: true }));
    expect(context.ledger.refunds.map((r) => r.amount)).toEqual([250]);
  });

  it('refuses an answer whose original call differs from the pending one (arguments, id or tool)', async () => {
    const context = await paused();
    const tamper = (original: Partial<FunctionCall>): FunctionCall => {
      const args = context.request.args as { originalFunctionCall: FunctionCall };
      return { ...context.request, args: { ...args, originalFunctionCall: { ...args.originalFunctionCall, ...original } } };
    };
    await expectRefused(context, confirmationResponse(tamper({ args: { amount: 25000 } }), { confirmed: true }), 'CONFIRMATION_MISMATCH');
    await expectRefused(context, confirmationResponse(tamper({ id: 'call-2' }), { confirmed: true }), 'CONFIRMATION_MISMATCH');
    const mismatch = await expectRefused(context, confirmationResponse(tamper({ name: 'refundAll' }), { confirmed: true }), 'CONFIRMATION_MISMATCH');
    expect(mismatch.errorMessage).toContain('"call-1" to tool "refund"');
  });

  it('accepts an echoed original call given as JSON text when it is the same call', async () => {
    const context = await paused();
    const part = confirmationResponsePart(context.request, { confirmed: true });
    part.functionResponse!.response.originalFunctionCall = JSON.stringify({ id: 'call-1', name: 'refund', args: '{"amount":250}' });
    await send(context.runner, { role: 'user', parts: [part] });
    expect(context.ledger.refunds.map((r) => r.amount)).toEqual([250]);
  });

  it('refuses a second answer to the same request, and the same id twice in one message', async () => {
    const context = await paused();
    const twice: Content = { role: 'user', parts: [...confirmationResponse(context.request, { confirmed: true }).parts, ...confirmationResponse(context.request, { confirmed: false }).parts] };
    await expectRefused(context, twice, 'FUNCTION_RESPONSE_NOT_PENDING');

    await send(context.runner, confirmationResponse(context.request, { confirmed: true }));
    expect(context.ledger.refunds).toHaveLength(1);
    const again = await send(context.runner, confirmationResponse(context.request, { confirmed: true }));
    expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(again[0].errorMessage).toContain('already answered');
    expect(context.ledger.refunds).toHaveLength(1);
  });

  it('runs the call once when two runs answer the same request at the same time', async () => {
    const context = await paused();
    const answer = confirmationResponse(context.request, { confirmed: true });

    const [first, second] = await Promise.all([send(context.runner, answer), send(context.runner, answer)]);

    expect(context.ledger.refunds.map((r) => r.amount)).toEqual([250]);
    // Runs on one session take turns: the second sees the first's answer and is refused.
    expect([first, second].map((events) => events.at(-1)!.errorCode ?? events.at(-1)!.text()).sort()).toEqual(['FUNCTION_RESPONSE_NOT_PENDING', 'Refunded 250.']);
    expect(context.model.callCount).toBe(2);
  });

  it('a second approval from another runner while the first is inside the tool stores nothing, so the first run keeps its result', async () => {
    const inside = deferred();
    const finish = deferred();
    let runs = 0;
    const slowRefund = functionTool({
      name: 'refund',
      description: 'Refunds an amount.',
      parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      requireConfirmation: true,
      execute: async ({ amount }: { amount: number }) => {
        runs++;
        inside.resolve();
        await finish.promise;
        return { refunded: amount };
      },
    });
    const sessionService = new InMemorySessionService();
    // Two runners on one store: two processes, each with its own in-process queue.
    const runnerWith = (script: ConstructorParameters<typeof ScriptedModel>[0]) => new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [slowRefund] }), sessionService });
    const request = onlyRequest(await send(runnerWith([bigRefund]), user('refund 250')));
    const answer = confirmationResponse(request, { confirmed: true });

    const approving = send(runnerWith(['Refunded 250.']), answer);
    await inside.promise;
    const duplicate = send(runnerWith(['never']), answer);
    finish.resolve();
    const [approved, refused] = await Promise.all([approving, duplicate]);

    expect(runs).toBe(1);
    expect(approved.at(-1)!.text()).toBe('Refunded 250.');
    expect(refused.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    const stored = (await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!.events;
    expect(stored.some((e) => e.errorCode)).toBe(false);
    expect(stored.flatMap((e) => e.functionResponses()).filter((r) => r.id === 'call-1')).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 250 } }]);
  });

  it.each([
    ['"yes"', { confirmed: 'yes' }],
    ['missing', {}],
    ['1', { confirmed: 1 }],
  ])('refuses a `confirmed` that is not a boolean (%s)', async (_label, response) => {
    const context = await paused();
    const answer: Content = { role: 'user', parts: [{ functionResponse: { id: context.request.id, name: REQUEST_CONFIRMATION, response } }] };
    const refused = await expectRefused(context, answer, 'INVALID_CONFIRMATION_ANSWER');
    expect(refused.errorMessage).toContain('"confirmed" must be true or false');
  });

  it('refuses an answer to a request id that does not carry the confirmation name', async () => {
    const context = await paused();
    const answer: Content = { role: 'user', parts: [{ functionResponse: { id: context.request.id, name: 'refund', response: { confirmed: true } } }] };
    await expectRefused(context, answer, 'INVALID_CONFIRMATION_ANSWER');
  });
});

describe('confirmation: parallel calls', () => {
  it('runs the calls that need no confirmation at once and shows the model every response in call order once settled', async () => {
    const { ledger, model, runner } = setup([
      {
        calls: [
          { id: 'w1', name: 'getWeather', args: { city: 'Paris' } },
          { id: 'r1', name: 'refund', args: { amount: 500 } },
          { id: 'w2', name: 'getWeather', args: { city: 'Oslo' } },
        ],
      },
      'Done.',
    ], [weatherTool()]);

    const first = await send(runner, user('weather and refund'));
    expect(first).toHaveLength(3);
    expect(first[1].functionResponses().map((r) => r.id)).toEqual(['w1', 'w2']);
    expect(originalCallFrom(onlyRequest(first)).id).toBe('r1');

    await send(runner, confirmationResponse(onlyRequest(first), { confirmed: true }));
    expect(ledger.refunds.map((r) => r.amount)).toEqual([500]);
    const contents = model.requests[1].contents;
    expect(contents).toHaveLength(3);
    expect(contents[2].parts.map((p) => [p.functionResponse!.id, p.functionResponse!.response])).toEqual([
      ['w1', { status: 'success', report: 'Sunny in Paris' }],
      ['r1', { refunded: 500 }],
      ['w2', { status: 'success', report: 'Sunny in Oslo' }],
    ]);
  });

  it('answers several pending confirmations of one response independently; the model waits for the last', async () => {
    const { ledger, model, runner } = setup([
      { calls: [{ id: 'r1', name: 'refund', args: { amount: 300 } }, { id: 'r2', name: 'refund', args: { amount: 400 } }] },
      'One refund done, one rejected.',
    ]);
    const first = await send(runner, user('two refunds'));
    const requests = confirmationRequests(first.at(-1)!);
    expect(requests.map((r) => r.originalFunctionCall.id)).toEqual(['r1', 'r2']);
    expect(first.at(-1)!.longRunningToolIds).toEqual(requests.map((r) => r.call.id));

    const second = await send(runner, confirmationResponse(requests[1].call, { confirmed: false }));
    expect(second).toHaveLength(1);
    expect(second[0].functionResponses().map((r) => [r.id, r.isError])).toEqual([['r2', true]]);
    expect(model.callCount).toBe(1);

    const third = await send(runner, confirmationResponse(requests[0].call, { confirmed: true }));
    expect(ledger.refunds.map((r) => r.amount)).toEqual([300]);
    expect(third.at(-1)!.text()).toBe('One refund done, one rejected.');
    expect(shownResponses(model.requests[1]).map((r) => [r.id, r.isError ?? false])).toEqual([
      ['r1', false],
      ['r2', true],
    ]);
  });

  it('shows the model a waiting call as not run when the user moves on without answering', async () => {
    const { ledger, model, runner } = setup([bigRefund, 'OK, no refund for now.']);
    await send(runner, user('refund 250'));

    await send(runner, user('never mind'));

    expect(ledger.refunds).toEqual([]);
    expect(model.requests[1].contents.map((c) => c.parts.map((p) => p.text ?? p.functionCall?.id ?? p.functionResponse?.response))).toEqual([
      ['refund 250'],
      ['call-1'],
      [{ error: { code: 'CONFIRMATION_PENDING', message: 'The call did not run: it is still waiting for the user\'s confirmation.' } }],
      ['never mind'],
    ]);
  });
});

describe('confirmation: the tool author\'s hint', () => {
  @Toolset()
  class HintedTools {
    @Tool({
      requireConfirmation: true,
      confirmationHint: (args: { orderId: string; amount: number }, ctx: ToolContext) => `Refund ${args.amount} € on ${args.orderId} (asked by ${ctx.userId})?`,
    })
    refund(@Param('orderId') orderId: string, @Param('amount') amount: number) {
      return { refunded: amount, orderId };
    }

    @Tool({ requireConfirmation: true, confirmationHint: 'Delete the whole archive?' })
    purge() {
      return { purged: true };
    }

    @Tool({ requireConfirmation: true, confirmationHint: async () => '' })
    vague() {
      return { done: true };
    }
  }

  it('asks with the hint from @Tool({ confirmationHint }): computed from the validated arguments, fixed text, or the generic one when empty', async () => {
    const model = new ScriptedModel([
      {
        calls: [
          { id: 'a', name: 'refund', args: JSON.stringify({ orderId: 'A-7', amount: 80 }) },
          { id: 'b', name: 'purge', args: {} },
          { id: 'c', name: 'vague', args: {} },
        ],
      },
    ]);
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, tools: [HintedTools] }) });

    const events = await send(runner, user('refund, purge, something'));

    const requests = confirmationRequests(events.at(-1)!);
    expect(requests.map((r) => [r.originalFunctionCall.id, r.hint])).toEqual([
      ['a', 'Refund 80 € on A-7 (asked by u1)?'],
      ['b', 'Delete the whole archive?'],
      ['c', 'Please approve or reject the call to tool "vague".'],
    ]);
    expect(events.at(-1)!.actions.requestedToolConfirmations!.a.hint).toBe('Refund 80 € on A-7 (asked by u1)?');

    // The approved call sees the hint it was asked with.
    const seen: Array<ToolConfirmation | undefined> = [];
    const hinted = functionTool({
      name: 'wipe',
      description: 'Wipes a disk.',
      parameters: { type: 'object', properties: { disk: { type: 'string' } }, required: ['disk'] },
      requireConfirmation: true,
      confirmationHint: (args: { disk: string }) => `Wipe ${args.disk}?`,
      execute: (_args, ctx) => (seen.push(ctx.toolConfirmation), { wiped: true }),
    });
    const model2 = new ScriptedModel([{ calls: [{ id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }, 'Wiped.']);
    const runner2 = new Runner({ appName: 'ops', agent: new LlmAgent({ name: 'ops', model: model2, tools: [hinted] }) });
    const paused = await send(runner2, user('wipe sdb'));
    expect(confirmationRequests(paused.at(-1)!)[0].hint).toBe('Wipe sdb?');
    const answered = await send(runner2, confirmationResponse(onlyRequest(paused), { confirmed: true }));
    expect(seen).toEqual([{ confirmed: true, hint: 'Wipe sdb?' }]);
    expect(answered.at(-1)!.text()).toBe('Wiped.');
  });

  it('turns a hint function that throws into the call\'s error response; nothing waits', async () => {
    const broken = functionTool({
      name: 'wipe',
      description: 'Wipes a disk.',
      requireConfirmation: true,
      confirmationHint: () => {
        throw new Error('no disk label');
      },
      execute: () => ({ wiped: true }),
    });
    const model = new ScriptedModel([{ calls: [{ id: 'w', name: 'wipe', args: {} }] }, 'Could not ask.']);
    const runner = new Runner({ appName: 'ops', agent: new LlmAgent({ name: 'ops', model, tools: [broken] }) });
    const events = await send(runner, user('wipe'));
    expect(events[1].functionResponses()[0]).toEqual(expect.objectContaining({ id: 'w', isError: true, response: { error: expect.objectContaining({ code: 'TOOL_EXECUTION_FAILED' }) } }));
    expect(events.flatMap((e) => confirmationRequests(e))).toEqual([]);
    expect(events.at(-1)!.text()).toBe('Could not ask.');
  });
});

describe('confirmation: several agents', () => {
  it('runs an approved call in the agent that made it, even after the conversation moved to another agent', async () => {
    const ledger = new Ledger();
    const billingModel = new ScriptedModel([bigRefund, { calls: [{ name: TRANSFER_TO_AGENT, args: { agentName: 'front' } }] }, 'Refunded 250 after all.']);
    const frontModel = new ScriptedModel([{ calls: [{ name: TRANSFER_TO_AGENT, args: { agentName: 'billing' } }] }, 'Anything else?']);
    const billing = new LlmAgent({ name: 'billing', model: billingModel, tools: [PaymentTools] });
    const front = new LlmAgent({ name: 'front', model: frontModel, subAgents: [billing] });
    const runner = new Runner({ appName: 'shop', agent: front, providers: [{ provide: Ledger, useValue: ledger }] });

    const paused = await send(runner, user('refund 250'));
    expect(paused.at(-1)!.author).toBe('billing');
    const moved = await send(runner, user('never mind, back to the front desk'));
    expect(moved.at(-1)!.author).toBe('front');

    const answered = await send(runner, confirmationResponse(onlyRequest(paused), { confirmed: true }));

    expect(ledger.refunds.map((r) => r.amount)).toEqual([250]);
    expect(answered.map((e) => e.author)).toEqual(['billing', 'billing']);
    expect(answered.at(-1)!.text()).toBe('Refunded 250 after all.');
  });
});

describe('originalCallFrom', () => {
  const original = { id: 'c1', name: 'refund', args: { amount: 5 } };

  it('reads the typed call and the raw JSON map, with args or the original call as JSON text', () => {
    expect(originalCallFrom({ id: 'q', name: REQUEST_CONFIRMATION, args: { originalFunctionCall: original, toolConfirmation: {} } })).toEqual(original);
    expect(originalCallFrom(JSON.parse(JSON.stringify({ id: 'q', name: REQUEST_CONFIRMATION, args: { originalFunctionCall: original } })))).toEqual(original);
    expect(originalCallFrom({ id: 'q', name: REQUEST_CONFIRMATION, args: JSON.stringify({ originalFunctionCall: original }) })).toEqual(original);
    expect(originalCallFrom({ id: 'q', name: REQUEST_CONFIRMATION, args: { originalFunctionCall: JSON.stringify(original) } })).toEqual(original);
  });

  it.each([
    ['another call', { id: 'q', name: 'refund', args: {} }, 'named "refund"'],
    ['no original call', { id: 'q', name: REQUEST_CONFIRMATION, args: {} }, '"originalFunctionCall" is missing'],
    ['args not JSON', { id: 'q', name: REQUEST_CONFIRMATION, args: '{oops' }, '"args" is not valid JSON'],
    ['original without id', { id: 'q', name: REQUEST_CONFIRMATION, args: { originalFunctionCall: { name: 'x', args: {} } } }, 'no string "id"'],
    ['original args an array', { id: 'q', name: REQUEST_CONFIRMATION, args: { originalFunctionCall: { id: 'c', name: 'x', args: [1] } } }, '"args" is neither'],
  ])('throws a typed error for %s', (_label, call, message) => {
    expect(() => originalCallFrom(call as FunctionCall)).toThrow(MalformedConfirmationRequestError);
    expect(() => originalCallFrom(call as FunctionCall)).toThrow(message);
    try {
      originalCallFrom(call as FunctionCall);
    } catch (error) {
      expect((error as MalformedConfirmationRequestError).code).toBe('MALFORMED_CONFIRMATION_REQUEST');
    }
  });
});
