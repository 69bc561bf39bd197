import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LlmAgent } from '../agents/llm-agent';
import type { ConfirmationPolicyInput, ConfirmationPolicySetting } from '../confirmation/confirmation-policy';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { InMemoryGrantService } from '../confirmation/in-memory-grant-service';
import { toolSchemaHash } from '../confirmation/tool-schema-hash';
import type { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { onlyRequest, send, shownResponses } from './__fixtures__/confirmation-fixtures';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** `refund({ amount })` asks above 100 (its own rule); every refund that ran is in `refunds`. */
function refundTool(refunds: number[]) {
  return functionTool<{ amount: number }>({
    name: 'refund',
    description: 'Refunds an amount.',
    parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    requireConfirmation: (args) => args.amount > 100,
    execute: (args) => {
      refunds.push(args.amount);
      return { refunded: args.amount };
    },
  });
}

const FIX = "Fix the policy: it must return { decision: 'allow' | 'ask' }, { decision: 'deny', reason } or undefined, and not throw.";
const refund = (amount: number, id = 'call-1') => ({ calls: [{ id, name: 'refund', args: { amount } }] });

function setup(
  script: ConstructorParameters<typeof ScriptedModel>[0],
  options: { runnerPolicy?: ConfirmationPolicySetting; agentPolicy?: ConfirmationPolicySetting; grants?: InMemoryGrantService } = {},
) {
  const refunds: number[] = [];
  const model = new ScriptedModel(script);
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const asked: ConfirmationPolicyInput[] = [];
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: 'shop',
    agent: new LlmAgent({ name: 'clerk', model, tools: [refundTool(refunds)], confirmationPolicy: options.agentPolicy }),
    sessionService,
    confirmationPolicy: options.runnerPolicy,
    grantService: options.grants,
    tracing: { tracerProvider },
  });
  const toolSpans = () => exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool refund').map((span) => span.attributes);
  return { refunds, model, runner, asked, toolSpans, sessionService };
}

const responses = (events: Event[]) => events.flatMap((e) => e.functionResponses());
/** The request event's record of the waiting call. */
const requested = (events: Event[]) => events.find((e) => confirmationRequests(e).length > 0)!.actions.requestedToolConfirmations!['call-1'];

describe('confirmationPolicy (enforce)', () => {
  it('allow: a call its rule gates runs without asking, marked as settled by the policy; a call that needs no confirmation only records the verdict', async () => {
    const policy = ({ args }: ConfirmationPolicyInput) => ((args.amount as number) <= 500 ? { decision: 'allow' as const, reason: 'up to 500 is routine' } : undefined);
    const { refunds, runner, toolSpans } = setup([{ calls: [{ id: 'call-1', name: 'refund', args: { amount: 250 } }, { id: 'call-2', name: 'refund', args: { amount: 20 } }] }, 'Done.'], {
      runnerPolicy: policy,
    });

    const events = await send(runner, user('refund 250 and 20'));

    expect(refunds).toEqual([250, 20]);
    expect(responses(events)).toEqual([
      {
        id: 'call-1',
        name: 'refund',
        response: { refunded: 250 },
        confirmation: { decision: 'approve', by: 'policy', reason: 'up to 500 is routine' },
        policy: { mode: 'enforce', decision: 'allow', reason: 'up to 500 is routine' },
      },
      { id: 'call-2', name: 'refund', response: { refunded: 20 }, policy: { mode: 'enforce', decision: 'allow', reason: 'up to 500 is routine' } },
    ]);
    expect(toolSpans()).toEqual([
      expect.objectContaining({ 'toolsmith.tool.confirmation_policy.decision': 'allow', 'toolsmith.tool.confirmation_policy.mode': 'enforce' }),
      expect.objectContaining({ 'toolsmith.tool.confirmation_policy.decision': 'allow', 'toolsmith.tool.confirmation_policy.mode': 'enforce' }),
    ]);
    // The call the policy settled without asking says so on its span; the other only carries the verdict.
    const spanOf = (id: string) => toolSpans().find((attributes) => attributes['gen_ai.tool.call.id'] === id)!;
    expect(spanOf('call-1')['toolsmith.tool.confirmation.by']).toBe('policy');
    expect(spanOf('call-2')['toolsmith.tool.confirmation.by']).toBeUndefined();
  });

  it('deny: the tool does not run, nobody is asked, and the model reads TOOL_CALL_DENIED with the reason; a grant that covers the call does not override it', async () => {
    const grants = new InMemoryGrantService();
    await grants.createGrant({ appName: 'shop', scope: 'app', toolName: 'refund', schemaHash: toolSchemaHash(refundTool([]).parameters) });
    const { refunds, model, runner } = setup([refund(250), 'I cannot refund that.'], { runnerPolicy: () => ({ decision: 'deny', reason: 'refunds are frozen today' }), grants });

    const events = await send(runner, user('refund 250'));

    expect(refunds).toEqual([]);
    expect(events.some((e) => confirmationRequests(e).length > 0)).toBe(false);
    const denied = {
      id: 'call-1',
      name: 'refund',
      isError: true,
      response: {
        error: {
          code: 'TOOL_CALL_DENIED',
          // The message quotes the reason; the call names the tool: no details repeat them.
          message: 'The call was denied by policy: "refunds are frozen today". Do not retry it unless the user asks.',
        },
      },
      confirmation: { decision: 'reject', by: 'policy', message: 'refunds are frozen today' },
      policy: { mode: 'enforce', decision: 'deny', reason: 'refunds are frozen today' },
    };
    expect(responses(events)).toEqual([denied]);
    expect(shownResponses(model.requests[1])).toEqual([denied]);
    expect(events.at(-1)!.text()).toBe('I cannot refund that.');
  });

  it('ask: a call its rule lets through waits for the person, the request records the verdict; approving runs it; a remembered grant covers a later one', async () => {
    const grants = new InMemoryGrantService();
    const { refunds, runner } = setup([refund(20), 'Done.', refund(30, 'call-2'), 'Done again.'], { runnerPolicy: () => ({ decision: 'ask', reason: 'new rule: ask for every refund' }), grants });

    const pausedEvents = await send(runner, user('refund 20'));
    expect(refunds).toEqual([]);
    expect(requested(pausedEvents)).toEqual({
      hint: 'Please approve or reject the call to tool "refund".',
      confirmed: false,
      askedBy: 'runner',
      policy: { mode: 'enforce', decision: 'ask', reason: 'new rule: ask for every refund' },
    });
    const answered = await send(runner, confirmationResponse(onlyRequest(pausedEvents), { decision: 'approve', remember: { scope: 'session' } }));
    expect(refunds).toEqual([20]);
    const grantId = responses(answered)[0].confirmation!.grantId!;

    const granted = await send(runner, user('refund 30'));
    expect(refunds).toEqual([20, 30]);
    expect(responses(granted)).toEqual([
      { id: 'call-2', name: 'refund', response: { refunded: 30 }, confirmation: { decision: 'approve', by: 'grant', grantId }, policy: { mode: 'enforce', decision: 'ask', reason: 'new rule: ask for every refund' } },
    ]);
  });

  it('is asked again about edited arguments: an edit it denies is refused with CONFIRMATION_EDIT_INVALID and its reason, nothing stored or run, the request stays open', async () => {
    const policy = ({ args }: ConfirmationPolicyInput) => ((args.amount as number) > 1000 ? { decision: 'deny' as const, reason: 'over 1000 needs a manager' } : undefined);
    const { refunds, model, runner } = setup([refund(250), 'Refunded 300.'], { runnerPolicy: policy });
    const pausedEvents = await send(runner, user('refund 250'));
    const request = onlyRequest(pausedEvents);

    const refused = await send(runner, confirmationResponse(request, { decision: 'edit', args: { amount: 9999 } }));
    expect(refused.map((e) => e.errorCode)).toEqual(['CONFIRMATION_EDIT_INVALID']);
    expect(refused[0].errorMessage).toContain('the confirmation policy denies the call with these arguments: over 1000 needs a manager');
    expect(refunds).toEqual([]);
    expect(model.requests).toHaveLength(1); // the model saw nothing of it

    const edited = await send(runner, confirmationResponse(request, { decision: 'edit', args: { amount: 300 } }));
    expect(refunds).toEqual([300]);
    expect(responses(edited)[0]).toMatchObject({ response: { result: { refunded: 300 }, argumentsEditedByUser: { amount: 300 } } });
  });

  it('no opinion (undefined): the tool\'s own rule decides, the verdict says none', async () => {
    const { refunds, runner } = setup([refund(20), 'Done.', refund(250, 'call-1'), 'never'], { runnerPolicy: () => undefined });
    expect(responses(await send(runner, user('refund 20')))).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 20 }, policy: { mode: 'enforce', decision: 'none' } }]);
    const events = await send(runner, user('refund 250'), 's2');
    expect(refunds).toEqual([20]);
    expect(requested(events).policy).toEqual({ mode: 'enforce', decision: 'none' });
  });

  it('is given the tool, the validated arguments, the user, the session and the call\'s context; an agent\'s own policy replaces the runner\'s', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const { runner } = setup([refund(20), 'Done.'], {
      runnerPolicy: () => ({ decision: 'deny', reason: 'the runner would deny' }),
      agentPolicy: ({ tool, args, userId, sessionId, context }) => {
        seen.push({ tool: tool.name, args, userId, sessionId, agent: context.agentName, callId: context.functionCallId });
        return { decision: 'allow' };
      },
    });
    expect(responses(await send(runner, user('refund 20')))[0]).toMatchObject({ response: { refunded: 20 }, policy: { mode: 'enforce', decision: 'allow' } });
    expect(seen).toEqual([{ tool: 'refund', args: { amount: 20 }, userId: 'u1', sessionId: 's1', agent: 'clerk', callId: 'call-1' }]);
  });

  it('is not asked again about a call the person answered', async () => {
    let calls = 0;
    const { refunds, runner } = setup([refund(250), 'Done.'], {
      runnerPolicy: () => {
        calls += 1;
        return { decision: 'ask' };
      },
    });
    const request = onlyRequest(await send(runner, user('refund 250')));
    const events = await send(runner, confirmationResponse(request, { decision: 'approve' }));
    expect(refunds).toEqual([250]);
    expect(calls).toBe(1);
    expect(responses(events)).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 250 } }]);
  });
});

describe('confirmationPolicy and a tool that asks itself', () => {
  const cleanup = (ran: string[]) =>
    functionTool<{ files: string[] }>({
      name: 'cleanup',
      description: 'Deletes files.',
      parameters: { type: 'object', properties: { files: { type: 'array', items: { type: 'string' } } }, required: ['files'] },
      execute: (args, ctx) => {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: `Delete ${args.files.length} files?` });
          return { status: 'waiting' };
        }
        ran.push(...args.files);
        return { deleted: args.files };
      },
    });
  const run = async (decision: 'allow' | 'deny' | 'ask', grantService?: InMemoryGrantService) => {
    const ran: string[] = [];
    const exporter = new InMemorySpanExporter();
    const call = (id: string) => ({ calls: [{ id, name: 'cleanup', args: { files: ['a', 'b'] } }] });
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([call('call-1'), 'Done.', call('call-2'), 'Done again.']), tools: [cleanup(ran)] }),
      sessionService: new InMemorySessionService(),
      grantService,
      confirmationPolicy: () => (decision === 'deny' ? { decision, reason: 'no deleting' } : { decision }),
      tracing: { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) },
    });
    const spansOf = (callId: string) => exporter.getFinishedSpans().filter((span) => span.attributes['gen_ai.tool.call.id'] === callId).map((span) => span.attributes);
    return { ran, runner, spansOf, events: await send(runner, user('clean up')) };
  };

  it('allowed, it still asks when it runs: the allow does not answer its own question', async () => {
    const { ran, events } = await run('allow');
    expect(ran).toEqual([]);
    expect(onlyRequest(events).args).toMatchObject({ toolConfirmation: { hint: 'Delete 2 files?' } });
    // The verdict is on the request (the policy is not asked again when the answer runs the call).
    expect(requested(events)).toMatchObject({ askedBy: 'tool', policy: { mode: 'enforce', decision: 'allow' } });
  });

  it('sent to the person (ask): the approval answers the policy, then the tool runs without ctx.toolConfirmation and asks its own question, which runs it', async () => {
    const { ran, runner, events } = await run('ask');
    const policyRequest = onlyRequest(events);
    expect(confirmationRequests(events.find((e) => confirmationRequests(e).length > 0)!)[0]).toMatchObject({ askedBy: 'runner', hint: 'Please approve or reject the call to tool "cleanup".' });
    const afterPolicy = await send(runner, confirmationResponse(policyRequest, { decision: 'approve' }));
    expect(ran).toEqual([]);
    const own = afterPolicy.flatMap((e) => confirmationRequests(e));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ askedBy: 'tool', hint: 'Delete 2 files?' });
    expect(responses(afterPolicy)).toEqual([]);
    const done = await send(runner, confirmationResponse(own[0].call, { decision: 'approve' }));
    expect(ran).toEqual(['a', 'b']);
    expect(responses(done)[0]).toMatchObject({ id: 'call-1', response: { deleted: ['a', 'b'] } });
  });

  it('sent to the person (ask) and approved with remember: the grant answers the policy next time, never the tool\'s own question', async () => {
    const grantService = new InMemoryGrantService();
    const { ran, runner, events } = await run('ask', grantService);
    const afterPolicy = await send(runner, confirmationResponse(onlyRequest(events), { decision: 'approve', remember: { scope: 'session' } }));
    expect(ran).toEqual([]);
    const own = afterPolicy.flatMap((e) => confirmationRequests(e));
    expect(own).toMatchObject([{ askedBy: 'tool', hint: 'Delete 2 files?' }]);
    // The grant the approval remembered is named on the tool's own request and on the call's response.
    const [grant] = await grantService.listGrants({ appName: 'shop' });
    expect(afterPolicy.find((e) => confirmationRequests(e).length > 0)!.actions.requestedToolConfirmations!['call-1'].grantId).toBe(grant.id);
    const done = await send(runner, confirmationResponse(own[0].call, { decision: 'approve' }));
    expect(ran).toEqual(['a', 'b']);
    expect(responses(done)[0]).toMatchObject({ id: 'call-1', response: { deleted: ['a', 'b'] }, confirmation: { decision: 'approve', by: 'user', grantId: grant.id } });
    const next = await send(runner, user('again'));
    expect(ran).toEqual(['a', 'b']);
    expect(next.flatMap((e) => confirmationRequests(e))).toMatchObject([{ askedBy: 'tool', hint: 'Delete 2 files?', call: { args: { originalFunctionCall: { id: 'call-2' } } } }]);
  });

  it('a later call whose policy ask the remembered grant answers: its own request, its response and its span name the grant, on every such call', async () => {
    const grantService = new InMemoryGrantService();
    const { ran, runner, events, spansOf } = await run('ask', grantService);
    const afterPolicy = await send(runner, confirmationResponse(onlyRequest(events), { decision: 'approve', remember: { scope: 'session' } }));
    await send(runner, confirmationResponse(onlyRequest(afterPolicy), { decision: 'approve' }));
    const [grant] = await grantService.listGrants({ appName: 'shop' });

    // call-2: the grant answers the policy's ask (nobody is asked that), then the tool asks its own question.
    const next = await send(runner, user('again'));
    const request = next.find((e) => confirmationRequests(e).length > 0)!.actions.requestedToolConfirmations!['call-2'];
    expect(request).toMatchObject({ askedBy: 'tool', grantId: grant.id, policy: { mode: 'enforce', decision: 'ask' } });
    // The run that the grant let through and that then asked: its span says the grant settled the policy's ask.
    expect(spansOf('call-2')).toEqual([
      expect.objectContaining({ 'toolsmith.tool.confirmation.by': 'grant', 'toolsmith.tool.confirmation.grant_id': grant.id, 'toolsmith.tool.confirmation_policy.decision': 'ask' }),
    ]);
    const done = await send(runner, confirmationResponse(onlyRequest(next), { decision: 'approve' }));
    expect(ran).toEqual(['a', 'b', 'a', 'b']);
    expect(responses(done)).toEqual([
      { id: 'call-2', name: 'cleanup', response: { deleted: ['a', 'b'] }, confirmation: { decision: 'approve', by: 'user', grantId: grant.id } },
    ]);
  });

  it('sent to the person (ask) and approved with remember, then its own question rejected: the rejection names the grant too', async () => {
    const grantService = new InMemoryGrantService();
    const { ran, runner, events } = await run('ask', grantService);
    const afterPolicy = await send(runner, confirmationResponse(onlyRequest(events), { decision: 'approve', remember: { scope: 'session' } }));
    const [own] = afterPolicy.flatMap((e) => confirmationRequests(e));
    const done = await send(runner, confirmationResponse(own.call, { decision: 'reject', message: 'Not those.' }));
    expect(ran).toEqual([]);
    const [grant] = await grantService.listGrants({ appName: 'shop' });
    expect(responses(done)[0]).toMatchObject({
      id: 'call-1',
      isError: true,
      response: { error: { code: 'TOOL_CALL_REJECTED' } },
      confirmation: { decision: 'reject', by: 'user', message: 'Not those.', grantId: grant.id },
    });
  });

  it('denied, it never runs', async () => {
    const { ran, events } = await run('deny');
    expect(ran).toEqual([]);
    expect(events.some((e) => confirmationRequests(e).length > 0)).toBe(false);
    expect(responses(events)[0]).toMatchObject({ isError: true, response: { error: { code: 'TOOL_CALL_DENIED' } } });
  });
});

describe('confirmationPolicy: failures fail safe', () => {
  it.each([
    ['throws', () => {
      throw new Error('rules service down: password=hunter2');
    }, `The confirmation policy failed on a call to tool "refund": it threw (Error; its message is not stored, as it may hold a secret). ${FIX}`],
    ['returns something that is not a decision', () => ({ decision: 'maybe' }), `The confirmation policy failed on a call to tool "refund": it returned {"decision":"maybe"}. ${FIX}`],
    ['denies without a reason', () => ({ decision: 'deny' }), `The confirmation policy failed on a call to tool "refund": it returned {"decision":"deny"}. ${FIX}`],
  ])('enforced, a policy that %s: the call (which its rule lets through) waits for the person, with CONFIRMATION_POLICY_FAILED on the request and the span', async (_name, policy, message) => {
    const { refunds, runner, toolSpans, sessionService } = setup([refund(20), 'Done.'], { runnerPolicy: policy as ConfirmationPolicySetting });

    const events = await send(runner, user('refund 20'));
    expect(JSON.stringify(sessionService.toJSON())).not.toContain('hunter2'); // a thrown message never lands in the session

    expect(refunds).toEqual([]);
    expect(requested(events).policy).toEqual({ mode: 'enforce', decision: 'ask', error: { code: 'CONFIRMATION_POLICY_FAILED', message } });
    expect(toolSpans()).toEqual([
      expect.objectContaining({
        'toolsmith.tool.confirmation_requested': true,
        'toolsmith.tool.confirmation_policy.decision': 'ask',
        'toolsmith.tool.confirmation_policy.error': 'CONFIRMATION_POLICY_FAILED',
      }),
    ]);
    await send(runner, confirmationResponse(onlyRequest(events), { decision: 'approve' }));
    expect(refunds).toEqual([20]);
  });

  it('in shadow mode, a policy that throws changes nothing: the call goes as its rule says, the verdict holds the error', async () => {
    const { refunds, runner } = setup([refund(20), 'Done.'], {
      runnerPolicy: {
        mode: 'shadow',
        decide: async () => {
          throw new TypeError('rules service down: token sk-secret');
        },
      },
    });
    expect(responses(await send(runner, user('refund 20')))).toEqual([
      {
        id: 'call-1',
        name: 'refund',
        response: { refunded: 20 },
        policy: {
          mode: 'shadow',
          decision: 'none',
          error: { code: 'CONFIRMATION_POLICY_FAILED', message: `The confirmation policy failed on a call to tool "refund": it threw (TypeError; its message is not stored, as it may hold a secret). ${FIX}` },
        },
      },
    ]);
    expect(refunds).toEqual([20]);
  });
});

describe('confirmationPolicy (shadow)', () => {
  it('records what it would have decided on the response, the request and the span, and acts on nothing', async () => {
    const decide = ({ args }: ConfirmationPolicyInput) => ((args.amount as number) > 10 ? { decision: 'deny' as const, reason: 'over 10' } : { decision: 'allow' as const });
    const { refunds, runner, toolSpans } = setup([refund(20), 'Done.', refund(250), 'never'], { runnerPolicy: { decide, mode: 'shadow' } });

    expect(responses(await send(runner, user('refund 20')))).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 20 }, policy: { mode: 'shadow', decision: 'deny', reason: 'over 10' } }]);
    expect(refunds).toEqual([20]);

    const events = await send(runner, user('refund 250'), 's2');
    expect(refunds).toEqual([20]);
    expect(requested(events).policy).toEqual({ mode: 'shadow', decision: 'deny', reason: 'over 10' });
    expect(toolSpans()).toEqual([
      expect.objectContaining({ 'toolsmith.tool.confirmation_policy.decision': 'deny', 'toolsmith.tool.confirmation_policy.mode': 'shadow' }),
      expect.objectContaining({ 'toolsmith.tool.confirmation_policy.decision': 'deny', 'toolsmith.tool.confirmation_policy.mode': 'shadow', 'toolsmith.tool.confirmation_requested': true }),
    ]);
  });
});

describe('confirmationPolicy: its mode', () => {
  it('a mode other than "enforce" or "shadow" is refused when the runner or the agent is built (AGENT_CONFIG_INVALID), never taken as shadow', () => {
    const decide = () => ({ decision: 'deny' as const, reason: 'no' });
    for (const mode of ['Enforce', '', 'shadoww', 'SHADOW', 1]) {
      const setting = { decide, mode } as unknown as ConfirmationPolicySetting;
      const model = new ScriptedModel([]);
      expect(() => new LlmAgent({ name: 'clerk', model, confirmationPolicy: setting })).toThrow(
        expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('it must be "enforce" (the default) or "shadow"') }),
      );
      expect(() => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model }), sessionService: new InMemorySessionService(), confirmationPolicy: setting })).toThrow(
        expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('The confirmationPolicy of the runner has "mode"') }),
      );
    }
    expect(() => new LlmAgent({ name: 'clerk', model: new ScriptedModel([]), confirmationPolicy: { mode: 'shadow' } as unknown as ConfirmationPolicySetting })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('needs a "decide" function') }),
    );
    expect(() => new LlmAgent({ name: 'clerk', model: new ScriptedModel([]), confirmationPolicy: { decide, mode: 'enforce' } })).not.toThrow();
  });
});
