import { LlmAgent } from '../agents/llm-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { REQUEST_CONFIRMATION } from '../confirmation/request-confirmation';
import { Param } from '../decorators/param.decorator';
import { Content } from '../model/content';
import { InMemoryGrantService } from '../confirmation/in-memory-grant-service';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ToolConfirmation } from '../state/event-actions';
import { ScriptedModel } from '../testing/scripted-model';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { onlyRequest, send, shownResponses } from './__fixtures__/confirmation-fixtures';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** Every refund that really ran: its arguments and the confirmation it ran with. */
class Ledger {
  readonly refunds: Array<{ orderId: string; amount: number; confirmation?: ToolConfirmation }> = [];
}

@Toolset()
class PaymentTools {
  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Refunds an amount on an order.', requireConfirmation: true })
  refund(@Param('orderId') orderId: string, @Param('amount', { schema: { type: 'number', minimum: 1, maximum: 1000 } }) amount: number, ctx: ToolContext) {
    this.ledger.refunds.push({ orderId, amount, confirmation: ctx.toolConfirmation });
    return { refunded: amount, orderId };
  }
}

const HINT = 'Please approve or reject the call to tool "refund".';
const refundCall = { calls: [{ id: 'call-1', name: 'refund', args: { orderId: 'A-1', amount: 250 } }] };

function setup(script: ConstructorParameters<typeof ScriptedModel>[0], tools: Array<typeof PaymentTools | FnTool> = [PaymentTools]) {
  const ledger = new Ledger();
  const model = new ScriptedModel(script);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: 'shop',
    agent: new LlmAgent({ name: 'clerk', model, tools }),
    providers: [{ provide: Ledger, useValue: ledger }],
    sessionService,
  });
  const storedEvents = async () => (await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!.events;
  return { ledger, model, runner, storedEvents };
}

async function paused(script: ConstructorParameters<typeof ScriptedModel>[0] = [refundCall, 'Done.']) {
  const context = setup(script);
  const request = onlyRequest(await send(context.runner, user('refund 250 on A-1')));
  return { ...context, request, before: (await context.storedEvents()).length };
}

describe('confirmation decisions: approve with edited arguments', () => {
  it('runs the call with the edited arguments, records the edit, and shows the model which arguments ran', async () => {
    const { ledger, model, runner, request } = await paused([refundCall, 'Refunded 100.']);

    const events = await send(runner, confirmationResponse(request, { decision: 'edit', args: { orderId: 'A-1', amount: 100 }, payload: { approver: 'Dana' } }));

    expect(ledger.refunds).toEqual([{ orderId: 'A-1', amount: 100, confirmation: { confirmed: true, hint: HINT, payload: { approver: 'Dana' } } }]);
    const response = {
      id: 'call-1',
      name: 'refund',
      response: { result: { refunded: 100, orderId: 'A-1' }, argumentsEditedByUser: { orderId: 'A-1', amount: 100 } },
      confirmation: { decision: 'edit', by: 'user', args: { orderId: 'A-1', amount: 100 } },
    };
    expect(events[0].functionResponses()).toEqual([response]);
    // The model sees its own call as it made it, and a response that says the arguments were edited and to what.
    expect(model.requests[1].contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'call-1', name: 'refund', args: { orderId: 'A-1', amount: 250 } } }] },
      { role: 'user', parts: [{ functionResponse: response }] },
    ]);
    expect(events.at(-1)!.text()).toBe('Refunded 100.');
  });

  it('refuses edited arguments the schema refuses, with every problem; nothing is stored or run and the request stays open', async () => {
    const context = await paused();

    const refused = await send(context.runner, confirmationResponse(context.request, { decision: 'edit', args: { orderId: 7, amount: 5000, extra: true } }));

    expect(refused).toHaveLength(1);
    expect(refused[0].errorCode).toBe('CONFIRMATION_EDIT_INVALID');
    expect(refused[0].errorMessage).toContain(`confirmation request "${context.request.id}" were refused for tool "refund"`);
    expect(refused[0].errorMessage).toContain('orderId');
    expect(refused[0].errorMessage).toContain('amount');
    expect(refused[0].errorMessage).toContain('Nothing ran; the request is still open.');
    expect(context.ledger.refunds).toEqual([]);
    expect(context.model.callCount).toBe(1);
    expect(await context.storedEvents()).toHaveLength(context.before);

    await send(context.runner, confirmationResponse(context.request, { decision: 'edit', args: { orderId: 'A-1', amount: 40 } }));
    expect(context.ledger.refunds.map((r) => r.amount)).toEqual([40]);
  });

  it('refuses edited arguments past the argument limits with CONFIRMATION_EDIT_INVALID and the problem, and runs an edit within them', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const store = new FnTool('store', (args) => (ran.push(args), { stored: true }), { requireConfirmation: true });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([{ calls: [{ id: 'call-1', name: 'store', args: { doc: 'old' } }] }, 'Stored.']), tools: [store] }),
      sessionService,
      // The answer's own JSON (its id, name and decision) fits in 400 characters; the edited args are measured on their own.
      argumentLimits: { maxChars: 400, maxDepth: 5 },
    });
    const request = onlyRequest(await send(runner, user('store it')));
    const stored = async () => (await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!.events.length;
    const before = await stored();
    const nested = (levels: number) => {
      let value: Record<string, unknown> = { leaf: true };
      for (let i = 1; i < levels; i++) value = { a: value };
      return value;
    };

    for (const [args, problem] of [
      [nested(6), 'nested deeper than 5 levels'],
      [{ doc: 'x'.repeat(500) }, 'larger than 400 characters'],
    ] as const) {
      const refused = await send(runner, confirmationResponse(request, { decision: 'edit', args }));
      expect(refused.map((e) => [e.errorCode, e.errorMessage])).toEqual([['CONFIRMATION_EDIT_INVALID', expect.stringContaining(problem)]]);
      expect(refused[0].errorMessage).toContain(problem);
      expect(refused[0].errorMessage).toContain(`confirmation request "${request.id}" were refused for tool "store"`);
    }
    // A forbidden key: one sentence, its own period not doubled.
    const forbidden = await send(runner, confirmationResponse(request, { decision: 'edit', args: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown> }));
    expect(forbidden.map((e) => e.errorCode)).toEqual(['CONFIRMATION_EDIT_INVALID']);
    expect(forbidden[0].errorMessage).toBe(
      `The edited arguments in the answer to confirmation request "${request.id}" were refused for tool "store": ` +
        'Arguments for tool "store" are not a valid JSON object: the key "__proto__" is not allowed in arguments. Nothing ran; the request is still open.',
    );
    expect(ran).toEqual([]);
    expect(await stored()).toBe(before);

    // Five levels of arguments are within the limits, though the message holds them three levels deeper.
    const events = await send(runner, confirmationResponse(request, { decision: 'edit', args: nested(5) }));
    expect(events.map((e) => e.errorCode)).toEqual([undefined, undefined]);
    expect(ran).toEqual([nested(5)]);
  });

  it("answers a call whose arguments are just within maxChars: the answer's copy of the call is measured as the call was, and must equal it", async () => {
    const ran: Array<Record<string, unknown>> = [];
    const store = new FnTool('store', (args) => (ran.push(args), { stored: true }), { requireConfirmation: true });
    // 390 characters of arguments under a limit of 400: the answer holds them again, with its own JSON around them.
    const doc = 'd'.repeat(390 - '{"doc":""}'.length);
    const setupStore = () => {
      const sessionService = new InMemorySessionService();
      const model = new ScriptedModel([{ calls: [{ id: 'call-1', name: 'store', args: { doc } }] }, 'Stored.']);
      const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, tools: [store] }), sessionService, argumentLimits: { maxChars: 400, maxDepth: 5 } });
      return { runner, model };
    };
    expect(JSON.stringify({ doc })).toHaveLength(390);

    const approving = setupStore();
    const approve = onlyRequest(await send(approving.runner, user('store it')));
    expect((await send(approving.runner, confirmationResponse(approve, { decision: 'approve' }))).map((e) => e.errorCode)).toEqual([undefined, undefined]);
    expect(ran).toEqual([{ doc }]);

    const rejecting = setupStore();
    const reject = onlyRequest(await send(rejecting.runner, user('store it')));
    const forged = (args: unknown) => ({ ...reject, args: { originalFunctionCall: { id: 'call-1', name: 'store', args } } });
    // A copy past the limits cannot be the call the runner accepted: refused before anything else reads it.
    const tooLarge = await send(rejecting.runner, confirmationResponse(forged({ doc: 'x'.repeat(500) }) as typeof reject, { decision: 'reject' }));
    expect(tooLarge.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining('copies a call whose arguments are larger than 400 characters')]]);
    // A copy within them that is not the call: refused as a mismatch.
    const other = await send(rejecting.runner, confirmationResponse(forged({ doc: 'other' }) as typeof reject, { decision: 'reject' }));
    expect(other.map((e) => e.errorCode)).toEqual(['CONFIRMATION_MISMATCH']);
    const rejected = await send(rejecting.runner, confirmationResponse(reject, { decision: 'reject', message: 'Not now.' }));
    expect(rejected.map((e) => e.errorCode)).toEqual([undefined, undefined]);
    expect(ran).toEqual([{ doc }]);
    expect(rejecting.model.requests[1].contents.at(-1)!.parts[0].functionResponse!.response).toEqual({ error: { code: 'TOOL_CALL_REJECTED', message: expect.stringContaining('Not now.') } });
  });

  it('refuses an edit whose echoed call is not the pending one, and a second edit after the first ran', async () => {
    const context = await paused();
    const tampered = { ...context.request, args: { originalFunctionCall: { id: 'call-1', name: 'refund', args: { orderId: 'A-1', amount: 100 } } } };
    const mismatch = await send(context.runner, confirmationResponse(tampered, { decision: 'edit', args: { orderId: 'A-1', amount: 100 } }));
    expect(mismatch.map((e) => e.errorCode)).toEqual(['CONFIRMATION_MISMATCH']);

    await send(context.runner, confirmationResponse(context.request, { decision: 'edit', args: { orderId: 'A-1', amount: 100 } }));
    const again = await send(context.runner, confirmationResponse(context.request, { decision: 'edit', args: { orderId: 'A-1', amount: 999 } }));
    expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(context.ledger.refunds.map((r) => r.amount)).toEqual([100]);
  });

  it('runs a tool that asked with ctx.requestConfirmation again, from the start, with the edited arguments', async () => {
    const deleted: string[][] = [];
    const cleanup = new FnTool('cleanup', (args, ctx) => {
      const files = args.files as string[];
      if (!ctx.toolConfirmation) {
        ctx.requestConfirmation({ hint: `Delete ${files.length} files?` });
        return { status: 'waiting' };
      }
      deleted.push(files);
      return { deleted: files.length };
    });
    const { runner } = setup([{ calls: [{ id: 'del', name: 'cleanup', args: { files: ['a', 'b', 'c'] } }] }, 'Deleted one.'], [cleanup]);
    const request = onlyRequest(await send(runner, user('clean up')));

    const events = await send(runner, confirmationResponse(request, { decision: 'edit', args: { files: ['a'] } }));

    expect(deleted).toEqual([['a']]);
    expect(events[0].functionResponses()[0].response).toEqual({ result: { deleted: 1 }, argumentsEditedByUser: { files: ['a'] } });
  });
});

describe('confirmation decisions: reject with a message, respond instead', () => {
  it('gives the model the rejection with the person\'s message, and records it; the tool does not run', async () => {
    const { ledger, model, runner, request } = await paused([refundCall, 'I will ask for 100 instead.']);

    const events = await send(runner, confirmationResponse(request, { decision: 'reject', message: 'Only 100, the rest is store credit.' }));

    expect(ledger.refunds).toEqual([]);
    const response = {
      id: 'call-1',
      name: 'refund',
      isError: true,
      response: {
        error: {
          code: 'TOOL_CALL_REJECTED',
          message: 'The user rejected the call and said: "Only 100, the rest is store credit.". Do not retry it unless the user asks.',
        },
      },
      confirmation: { decision: 'reject', by: 'user', message: 'Only 100, the rest is store credit.' },
    };
    expect(events[0].functionResponses()).toEqual([response]);
    expect(shownResponses(model.requests[1])).toEqual([response]);
  });

  it('a rejection without a message is the plain denial', async () => {
    const { runner, request } = await paused();
    const events = await send(runner, confirmationResponse(request, { decision: 'reject' }));
    expect(events[0].functionResponses()).toEqual([
      {
        id: 'call-1',
        name: 'refund',
        isError: true,
        response: { error: { code: 'TOOL_CALL_REJECTED', message: 'The user rejected the call. Do not retry it unless the user asks.' } },
      },
    ]);
  });

  it('makes the person\'s answer the tool\'s result without running the tool (a value that is not an object, null included, is wrapped as { result })', async () => {
    const { ledger, model, runner, request } = await paused([refundCall, 'Done by hand.']);

    const events = await send(runner, confirmationResponse(request, { decision: 'respond', result: { refunded: 0, note: 'handled by phone' } }));

    expect(ledger.refunds).toEqual([]);
    const response = { id: 'call-1', name: 'refund', response: { refunded: 0, note: 'handled by phone' }, confirmation: { decision: 'respond', by: 'user' } };
    expect(events[0].functionResponses()).toEqual([response]);
    expect(shownResponses(model.requests[1])).toEqual([response]);

    const other = await paused();
    const wrapped = await send(other.runner, confirmationResponse(other.request, { decision: 'respond', result: 'no refund needed' }));
    expect(wrapped[0].functionResponses()[0].response).toEqual({ result: 'no refund needed' });

    const third = await paused();
    const nothing = await send(third.runner, confirmationResponse(third.request, { decision: 'respond', result: null }));
    expect(nothing[0].functionResponses()[0].response).toEqual({ result: null });
    expect(third.ledger.refunds).toEqual([]);
  });

  it('an explicit approve is the plain approval', async () => {
    const { ledger, runner, request } = await paused();
    const events = await send(runner, confirmationResponse(request, { decision: 'approve' }));
    expect(ledger.refunds.map((r) => r.amount)).toEqual([250]);
    expect(events[0].functionResponses()).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 250, orderId: 'A-1' } }]);
  });
});

describe('"always allow" only where a grant can apply', () => {
  it('marks who asked; refuses "remember" on a request the tool made itself (ctx.requestConfirmation), storing nothing; a rule\'s request takes it', async () => {
    const purged: string[] = [];
    const purge = new FnTool('purge', (args, ctx) => {
      if (!ctx.toolConfirmation) {
        ctx.requestConfirmation({ hint: 'Purge the cache?' });
        return { status: 'waiting' };
      }
      purged.push(String(args.cache));
      return { purged: args.cache };
    });
    const sessionService = new InMemorySessionService();
    const grantService = new InMemoryGrantService();
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([{ calls: [{ id: 'p1', name: 'purge', args: { cache: 'img' } }] }, 'Purged.', refundCall, 'Refunded.']), tools: [purge, PaymentTools] }),
      providers: [{ provide: Ledger, useValue: new Ledger() }],
      sessionService,
      grantService,
    });
    const paused = await send(runner, user('purge img'));
    const [asked] = confirmationRequests(paused.at(-1)!);
    expect(asked.askedBy).toBe('tool');
    const stored = async () => (await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!.events.length;
    const before = await stored();

    const refused = await send(runner, confirmationResponse(asked.call, { decision: 'approve', remember: { scope: 'session' } }));
    expect(refused.map((e) => [e.errorCode, e.errorMessage])).toEqual([
      ['INVALID_CONFIRMATION_ANSWER', expect.stringContaining('"remember" (always allow) does not apply to this request: the tool asked itself (ctx.requestConfirmation)')],
    ]);
    expect(purged).toEqual([]);
    expect(await stored()).toBe(before);
    expect(await grantService.listGrants({ appName: 'shop' })).toEqual([]);

    await send(runner, confirmationResponse(asked.call, { decision: 'approve' }));
    expect(purged).toEqual(['img']);

    // The tool's requireConfirmation rule asks through the runner: "always allow" applies there.
    const rule = confirmationRequests((await send(runner, user('refund 250 on A-1'))).at(-1)!);
    expect(rule.map((r) => r.askedBy)).toEqual(['runner']);
    const done = await send(runner, confirmationResponse(rule[0].call, { decision: 'approve', remember: { scope: 'session' } }));
    expect(done[0].functionResponses()[0].confirmation).toMatchObject({ decision: 'approve', by: 'user', grantId: expect.any(String) });
  });
});

describe('confirmation decisions: null fields are absent ones', () => {
  // As a pydantic model of the answer dumps it: every optional field it does not set is null.
  const dumped = { decision: null, confirmed: null, args: null, message: null, result: null, remember: null, originalFunctionCall: null };
  const answer = (id: string, fields: Record<string, unknown>): Content => ({ role: 'user', parts: [{ functionResponse: { id, name: REQUEST_CONFIRMATION, response: { ...dumped, ...fields } } }] });

  it('approves, edits and rejects when the fields that do not go with the decision are null', async () => {
    const approved = await paused();
    await send(approved.runner, answer(approved.request.id, { decision: 'approve', confirmed: true }));
    expect(approved.ledger.refunds.map((r) => r.amount)).toEqual([250]);

    const edited = await paused();
    await send(edited.runner, answer(edited.request.id, { decision: 'edit', args: { orderId: 'A-1', amount: 100 } }));
    expect(edited.ledger.refunds.map((r) => r.amount)).toEqual([100]);

    const rejected = await paused();
    const events = await send(rejected.runner, answer(rejected.request.id, { decision: 'reject', confirmed: false }));
    expect(events[0].functionResponses()[0].response).toEqual({ error: { code: 'TOOL_CALL_REJECTED', message: 'The user rejected the call. Do not retry it unless the user asks.' } });
    expect(rejected.ledger.refunds).toEqual([]);

    const yesNo = await paused();
    await send(yesNo.runner, answer(yesNo.request.id, { confirmed: true }));
    expect(yesNo.ledger.refunds.map((r) => r.amount)).toEqual([250]);
  });
});

describe('confirmation decisions: malformed answers are refused', () => {
  it.each([
    ['an unknown decision', { decision: 'maybe' }, '"decision" must be "approve", "edit", "reject" or "respond", got "maybe"'],
    ['an edit without arguments', { decision: 'edit' }, '"args" (the edited arguments) must be a JSON object'],
    ['edited arguments that are text', { decision: 'edit', args: '{"amount":1}' }, '"args" (the edited arguments) must be a JSON object'],
    ['arguments with an approval', { decision: 'approve', args: { orderId: 'A-1', amount: 1 } }, '"args" goes only with "decision": "edit"'],
    ['arguments with the yes/no form', { confirmed: true, args: { orderId: 'A-1', amount: 1 } }, '"args" goes only with "decision": "edit"'],
    ['a message with an approval', { decision: 'approve', message: 'fine' }, '"message" goes only with "decision": "reject"'],
    ['a message that is not text', { decision: 'reject', message: 42 }, '"message" must be a string'],
    ['a response without a result', { decision: 'respond' }, '"result" (the answer that stands in for the tool\'s result) is missing'],
    ['a result with a rejection', { decision: 'reject', result: {} }, '"result" goes only with "decision": "respond"'],
    ['remember with a rejection', { decision: 'reject', remember: { scope: 'session' } }, '"remember" goes only with "decision": "approve"'],
    ['remember in an unknown scope', { decision: 'approve', remember: { scope: 'forever' } }, '"remember.scope" must be "session", "user" or "app", got "forever"'],
    ['remember with an expiry that is not a time', { decision: 'approve', remember: { scope: 'user', expiresAt: 'tomorrow' } }, `"remember.expiresAt" must be a whole number of ms since the epoch (0 to ${Number.MAX_SAFE_INTEGER}), got "tomorrow"`],
    ['remember on a runner without a grant service', { decision: 'approve', remember: { scope: 'user' } }, '"remember" needs a grantService on the runner, and this runner has none'],
    ['a confirmed that contradicts the decision', { decision: 'edit', confirmed: false, args: { orderId: 'A-1', amount: 1 } }, '"confirmed": false contradicts "decision": "edit"'],
    ['an edit that says confirmed (a yes/no reader would run the model\'s call)', { decision: 'edit', confirmed: true, args: { orderId: 'A-1', amount: 1 } }, '"confirmed": true contradicts "decision": "edit"'],
    ['a response that says confirmed (a yes/no reader would run the tool)', { decision: 'respond', confirmed: true, result: 'done' }, '"confirmed": true contradicts "decision": "respond"'],
  ])('refuses %s', async (_label, response, problem) => {
    const context = await paused();
    const answer: Content = { role: 'user', parts: [{ functionResponse: { id: context.request.id, name: REQUEST_CONFIRMATION, response } }] };

    const refused = await send(context.runner, answer);

    expect(refused.map((e) => e.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
    expect(refused[0].errorMessage).toBe(`The answer to confirmation request "${context.request.id}" was refused: ${problem}.`);
    expect(context.ledger.refunds).toEqual([]);
    expect(await context.storedEvents()).toHaveLength(context.before);
    expect(confirmationRequests((await context.storedEvents()).at(-1)!)).toHaveLength(1); // still open
  });

  it('writes the wire form a reader of the yes/no form refuses for an edit or a response (no `confirmed`)', () => {
    const call = { id: 'confirm-1', name: REQUEST_CONFIRMATION, args: { originalFunctionCall: { id: 'c', name: 'refund', args: {} } } };
    const responseOf = (answer: Parameters<typeof confirmationResponse>[1]) => confirmationResponse(call, answer).parts[0].functionResponse!.response;
    expect(responseOf({ decision: 'approve' })).toEqual({ decision: 'approve', confirmed: true, originalFunctionCall: { id: 'c', name: 'refund', args: {} } });
    expect(responseOf({ decision: 'reject', message: 'no' })).toEqual({ decision: 'reject', confirmed: false, message: 'no', originalFunctionCall: { id: 'c', name: 'refund', args: {} } });
    expect(responseOf({ decision: 'edit', args: { a: 1 } })).toEqual({ decision: 'edit', args: { a: 1 }, originalFunctionCall: { id: 'c', name: 'refund', args: {} } });
    expect(responseOf({ decision: 'respond', result: 3 })).toEqual({ decision: 'respond', result: 3, originalFunctionCall: { id: 'c', name: 'refund', args: {} } });
  });
});
