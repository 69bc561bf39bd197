import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LlmAgent } from '../agents/llm-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { type ConfirmationAnswer, confirmationResponse } from '../confirmation/confirmation-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import { InMemoryGrantService } from '../confirmation/in-memory-grant-service';
import type { ConfirmationPolicySetting } from '../confirmation/confirmation-policy';
import type { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import type { Content } from '../model/content';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { wipeTool } from '../testing/wipe-tool';
import { toolSchemaHash } from '../confirmation/tool-schema-hash';
import { AgentTool } from './agent-tool';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const key = { appName: 'ops', userId: 'u1', sessionId: 's1' };

/**
 * `main` calls the `janitor` agent as a tool; the janitor notes what it does (a state write), then
 * wipes a disk, which needs the person's approval. Every wipe that ran is in `wiped`.
 */
function setup(
  innerScript: ConstructorParameters<typeof ScriptedModel>[0],
  outerScript: ConstructorParameters<typeof ScriptedModel>[0],
  grantService?: InMemoryGrantService,
  confirmationPolicy?: ConfirmationPolicySetting,
) {
  const wiped: string[] = [];
  const wipe = wipeTool(wiped);
  const note = functionTool({
    name: 'note',
    description: 'Notes the job.',
    execute: (_args: Record<string, never>, ctx) => {
      ctx.state.set('noted', true);
      return { ok: true };
    },
  });
  const innerModel = new ScriptedModel(innerScript);
  const outerModel = new ScriptedModel(outerScript);
  const janitor = new LlmAgent({ name: 'janitor', description: 'Cleans disks.', model: innerModel, tools: [note, wipe] });
  const main = new LlmAgent({ name: 'main', model: outerModel, tools: [new AgentTool({ agent: janitor })] });
  let sessionService = new InMemorySessionService();
  /** Sends a message on a new Runner; with `restart`, over a JSON round trip of the store first (another process, later). */
  const send = async (newMessage: Content, restart = false): Promise<Event[]> => {
    if (restart) sessionService = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(sessionService.toJSON())));
    const runner = new Runner({ appName: 'ops', agent: main, sessionService, grantService, confirmationPolicy });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
    return events;
  };
  const session = async () => (await sessionService.getSession(key))!;
  return { wiped, innerModel, outerModel, send, session };
}

const janitorCalls = { calls: [{ id: 'j', name: 'janitor', args: { request: 'wipe sdb' } }] };
const innerCalls = { calls: [{ id: 'n', name: 'note' }, { id: 'w', name: 'wipe', args: { disk: 'sdb' } }] };
const requestsIn = (events: Event[]) => events.flatMap((e) => confirmationRequests(e));

describe('AgentTool: approvals from inside an agent used as a tool', () => {
  it('pauses the outer run with an ordinary confirmation request for the agent tool\'s call, naming the inner call; the inner work before it is kept', async () => {
    const { wiped, innerModel, outerModel, send, session } = setup([innerCalls, 'never'], [janitorCalls, 'never']);

    const events = await send(user('clean up'));

    expect(wiped).toEqual([]);
    const [request] = requestsIn(events);
    expect(request).toMatchObject({
      originalFunctionCall: { id: 'j', name: 'janitor', args: { request: 'wipe sdb' } },
      hint: 'Wipe sdb?',
      relayed: { agent: 'janitor', call: { id: 'w', name: 'wipe', args: { disk: 'sdb' } } },
      askedBy: 'runner', // the inner tool's rule asked: "always allow" applies
    });
    expect(request.call.args).toEqual({ originalFunctionCall: { id: 'j', name: 'janitor', args: { request: 'wipe sdb' } }, toolConfirmation: { hint: 'Wipe sdb?' } });
    expect(events.at(-1)!.longRunningToolIds).toEqual([request.call.id]);
    expect(innerModel.callCount).toBe(1);
    expect(outerModel.callCount).toBe(1);
    const stored = await session();
    expect(stored.state.noted).toBe(true);
    expect([...findPendingCalls(stored.events).confirmations.values()].map((p) => p.relay?.call.name)).toEqual(['wipe']);
  });

  const cases: Array<[string, ConfirmationAnswer, unknown, string[], Record<string, unknown> | undefined]> = [
    ['approve', { decision: 'approve' }, { id: 'w', name: 'wipe', response: { wiped: 'sdb' } }, ['sdb'], undefined],
    [
      'edit',
      { decision: 'edit', args: { disk: 'sdc' } },
      { id: 'w', name: 'wipe', response: { result: { wiped: 'sdc' }, argumentsEditedByUser: { disk: 'sdc' } }, confirmation: { decision: 'edit', by: 'user', args: { disk: 'sdc' } } },
      ['sdc'],
      { decision: 'edit', by: 'user', args: { disk: 'sdc' } },
    ],
    [
      'reject',
      { decision: 'reject', message: 'Not today.' },
      {
        id: 'w',
        name: 'wipe',
        isError: true,
        response: { error: { code: 'TOOL_CALL_REJECTED', message: 'The user rejected the call and said: "Not today.". Do not retry it unless the user asks.' } },
        confirmation: { decision: 'reject', by: 'user', message: 'Not today.' },
      },
      [],
      { decision: 'reject', by: 'user', message: 'Not today.' },
    ],
    [
      'respond',
      { decision: 'respond', result: { wiped: 'by hand' } },
      { id: 'w', name: 'wipe', response: { wiped: 'by hand' }, confirmation: { decision: 'respond', by: 'user' } },
      [],
      { decision: 'respond', by: 'user' },
    ],
  ];

  it.each(cases)('%s: the answer, sent after a restart, resumes the inner agent where it stopped; the outer call gets its answer; a second answer is refused', async (_name, answer, innerResponse, ran, outerConfirmation) => {
    const { wiped, innerModel, outerModel, send, session } = setup([innerCalls, 'Janitor done.'], [janitorCalls, 'All clean.']);
    const [request] = requestsIn(await send(user('clean up')));

    const events = await send(confirmationResponse(request, answer), true);

    expect(wiped).toEqual(ran);
    // The inner model saw its own calls, then the note's response and the wipe's as the decision made it.
    expect(innerModel.callCount).toBe(2);
    expect(innerModel.requests[1].contents.at(-1)!.parts.map((p) => p.functionResponse)).toEqual([{ id: 'n', name: 'note', response: { ok: true } }, innerResponse]);
    const outer = events.flatMap((e) => e.functionResponses());
    expect(outer).toEqual([
      {
        id: 'j',
        name: 'janitor',
        response: { result: 'Janitor done.' },
        ...(outerConfirmation ? { confirmation: outerConfirmation } : {}),
        // Every decision the person made through the relay is listed, a plain approval included.
        innerCalls: [{ agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: outerConfirmation ?? { decision: 'approve', by: 'user' } }],
      },
    ]);
    expect(outerModel.callCount).toBe(2);
    expect(events.at(-1)!.text()).toBe('All clean.');
    expect(findPendingCalls((await session()).events).confirmations.size).toBe(0);

    const before = (await session()).events.length;
    const again = await send(confirmationResponse(request, answer), true);
    expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect((await session()).events).toHaveLength(before);
    expect(wiped).toEqual(ran);
  });

  it('checks an edit against the inner tool\'s schema before anything is stored: CONFIRMATION_EDIT_INVALID, and the request stays open', async () => {
    const { wiped, send, session } = setup([innerCalls, 'Janitor done.'], [janitorCalls, 'All clean.']);
    const [request] = requestsIn(await send(user('clean up')));
    const before = (await session()).events.length;

    const refused = await send(confirmationResponse(request, { decision: 'edit', args: { disk: '/dev/sda' } }));

    expect(refused.map((e) => e.errorCode)).toEqual(['CONFIRMATION_EDIT_INVALID']);
    expect(refused[0].errorMessage).toContain('were refused for tool "wipe"');
    expect((await session()).events).toHaveLength(before);
    expect(wiped).toEqual([]);
    await send(confirmationResponse(request, { decision: 'edit', args: { disk: 'sdd' } }));
    expect(wiped).toEqual(['sdd']);
  });

  it('relays the inner agent\'s requests one at a time: two gated calls are two requests in turn, and the inner model runs once both are answered', async () => {
    const two = { calls: [{ id: 'w1', name: 'wipe', args: { disk: 'sdb' } }, { id: 'w2', name: 'wipe', args: { disk: 'sdc' } }] };
    const { wiped, innerModel, send } = setup([two, 'Both handled.'], [janitorCalls, 'Done.']);
    const [first] = requestsIn(await send(user('clean up')));
    expect(first.relayed!.call).toEqual({ id: 'w1', name: 'wipe', args: { disk: 'sdb' } });

    const between = await send(confirmationResponse(first, { decision: 'approve' }), true);
    expect(wiped).toEqual(['sdb']);
    expect(innerModel.callCount).toBe(1);
    const [second] = requestsIn(between);
    expect(second.originalFunctionCall.id).toBe('j');
    expect(second.relayed!.call).toEqual({ id: 'w2', name: 'wipe', args: { disk: 'sdc' } });
    expect(between.flatMap((e) => e.functionResponses())).toEqual([]);

    const done = await send(confirmationResponse(second, { decision: 'reject' }), true);
    expect(wiped).toEqual(['sdb']);
    expect(innerModel.callCount).toBe(2);
    expect(done.flatMap((e) => e.functionResponses())).toEqual([{
      id: 'j',
      name: 'janitor',
      response: { result: 'Both handled.' },
      confirmation: { decision: 'reject', by: 'user' },
      // Both decisions, the approval too, each on its own inner call.
      innerCalls: [
        { agent: 'janitor', call: { id: 'w1', name: 'wipe' }, confirmation: { decision: 'approve', by: 'user' } },
        { agent: 'janitor', call: { id: 'w2', name: 'wipe' }, confirmation: { decision: 'reject', by: 'user' } },
      ],
    }]);
    expect(done.at(-1)!.text()).toBe('Done.');
  });

  it('an approval with remember stores a grant for the inner tool, in the conversation\'s session: the next inner call it covers runs without asking', async () => {
    const grants = new InMemoryGrantService();
    const again = { calls: [{ id: 'j2', name: 'janitor', args: { request: 'wipe sdc' } }] };
    const { wiped, send, session } = setup([innerCalls, 'Janitor done.', { calls: [{ id: 'w2', name: 'wipe', args: { disk: 'sdc' } }] }, 'Janitor done again.'], [janitorCalls, 'All clean.', again, 'Clean again.'], grants);
    const [request] = requestsIn(await send(user('clean up')));

    const answered = await send(confirmationResponse(request, { decision: 'approve', remember: { scope: 'session' } }), true);
    const [grant] = await grants.listGrants({ appName: 'ops' });
    expect(grant).toMatchObject({ scope: 'session', userId: 'u1', sessionId: 's1', toolName: 'wipe' });
    expect(answered.flatMap((e) => e.functionResponses())[0]).toMatchObject({
      confirmation: { decision: 'approve', by: 'user' },
      innerCalls: [{ agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'approve', by: 'user', grantId: grant.id } }],
    });

    const next = await send(user('and sdc'), true);
    expect(requestsIn(next)).toEqual([]);
    expect(wiped).toEqual(['sdb', 'sdc']);
    expect(next.at(-1)!.text()).toBe('Clean again.');
    // The inner call ran on the grant: the outer session (read back after a restart) says so on the agent tool's response.
    const granted = { agent: 'janitor', call: { id: 'w2', name: 'wipe' }, confirmation: { decision: 'approve', by: 'grant', grantId: grant.id } };
    expect(next.flatMap((e) => e.functionResponses())).toEqual([{ id: 'j2', name: 'janitor', response: { result: 'Janitor done again.' }, innerCalls: [granted] }]);
    const stored = JSON.parse(JSON.stringify((await session()).events)) as Event[];
    expect(stored.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionResponse?.id === 'j2')!.functionResponse!.innerCalls).toEqual([granted]);
  });

  it('relays the payload and form of an inner tool that asks itself, and passes the answer\'s payload back to it', async () => {
    const APPROVER_FORM = { type: 'object', properties: { approver: { type: 'string' } }, required: ['approver'] };
    const seen: unknown[] = [];
    const purge = functionTool({
      name: 'purge',
      description: 'Purges caches.',
      execute: (_args: Record<string, never>, ctx) => {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: 'Purge 3 caches?', payload: { caches: 3 }, payloadSchema: APPROVER_FORM });
          return { status: 'waiting' };
        }
        seen.push(ctx.toolConfirmation.payload);
        return { purged: 3 };
      },
    });
    const inner = new LlmAgent({ name: 'cleaner', description: 'Cleans.', model: new ScriptedModel([{ calls: [{ id: 'p', name: 'purge' }] }, 'Purged.']), tools: [purge] });
    const outerModel = new ScriptedModel([{ calls: [{ id: 'c', name: 'cleaner', args: { request: 'purge' } }] }, 'Done.']);
    const runner = new Runner({ appName: 'ops', agent: new LlmAgent({ name: 'main', model: outerModel, tools: [new AgentTool({ agent: inner })] }), sessionService: new InMemorySessionService() });
    const run = async (newMessage: Content) => {
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
      return events;
    };
    const [request] = requestsIn(await run(user('purge')));
    expect(request).toMatchObject({ hint: 'Purge 3 caches?', payload: { caches: 3 }, payloadSchema: APPROVER_FORM, relayed: { agent: 'cleaner', call: { id: 'p', name: 'purge', args: {} } }, askedBy: 'tool' });
    // The inner form is relayed: an answer that does not fill it in is refused at the outer run, before anything is stored.
    const unfilled = await run(confirmationResponse(request, { decision: 'approve', payload: { approver: 7 } }));
    expect(unfilled.map((e) => e.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
    expect(unfilled[0].errorMessage).toContain('its "payload" does not fill in the request\'s form');
    // The inner tool asked itself: no grant answers it, so "always allow" is refused before anything is stored.
    const always = await run(confirmationResponse(request, { decision: 'approve', remember: { scope: 'session' } }));
    expect(always.map((e) => e.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
    expect(always[0].errorMessage).toContain('the tool asked itself (ctx.requestConfirmation)');
    expect(seen).toEqual([]);
    const done = await run(confirmationResponse(request, { decision: 'approve', payload: { approver: 'Dana' } }));
    expect(seen).toEqual([{ approver: 'Dana' }]);
    expect(done.at(-1)!.text()).toBe('Done.');
  });
});

describe('approvals from a sub-agent reached by a transfer', () => {
  const transfer = (agentName: string) => ({ calls: [{ name: 'transfer_to_agent', args: { agentName } }] });

  it.each<[string, ConfirmationAnswer, string[]]>([
    ['approve', { decision: 'approve' }, ['sdb']],
    ['edit', { decision: 'edit', args: { disk: 'sdc' } }, ['sdc']],
    ['reject', { decision: 'reject', message: 'No.' }, []],
    ['respond', { decision: 'respond', result: { wiped: 'by hand' } }, []],
  ])('%s: the sub-agent the conversation was transferred to resumes after a restart and finishes its turn', async (_name, answer, ran) => {
    const wiped: string[] = [];
    const opsModel = new ScriptedModel([{ calls: [{ id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }, 'Handled.']);
    const ops = new LlmAgent({ name: 'ops', description: 'Runs operations.', model: opsModel, tools: [wipeTool(wiped)] });
    const front = new LlmAgent({ name: 'front', model: new ScriptedModel([transfer('ops')]), subAgents: [ops] });
    let sessionService = new InMemorySessionService();
    const send = async (newMessage: Content) => {
      sessionService = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(sessionService.toJSON())));
      const events: Event[] = [];
      for await (const event of new Runner({ appName: 'ops', agent: front, sessionService }).run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
      return events;
    };

    const [request] = requestsIn(await send(user('wipe sdb')));
    expect(request.originalFunctionCall).toEqual({ id: 'w', name: 'wipe', args: { disk: 'sdb' } });
    const events = await send(confirmationResponse(request, answer));

    expect(wiped).toEqual(ran);
    expect(events.map((e) => e.author)).toEqual(['ops', 'ops']);
    expect(events.at(-1)!.text()).toBe('Handled.');
    expect(opsModel.requests[1].contents.at(-1)!.parts[0].functionResponse).toMatchObject({ id: 'w', name: 'wipe' });
  });

  it('inside an AgentTool: the inner agent transferred to its sub-agent, whose request is relayed and resumed there', async () => {
    const wiped: string[] = [];
    const opsModel = new ScriptedModel([{ calls: [{ id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }, 'Wiped by ops.']);
    const ops = new LlmAgent({ name: 'ops', description: 'Runs operations.', model: opsModel, tools: [wipeTool(wiped)] });
    const desk = new LlmAgent({ name: 'desk', description: 'Routes work.', model: new ScriptedModel([transfer('ops')]), subAgents: [ops] });
    const outerModel = new ScriptedModel([{ calls: [{ id: 'd', name: 'desk', args: { request: 'wipe sdb' } }] }, 'Done.']);
    const runner = new Runner({ appName: 'ops', agent: new LlmAgent({ name: 'main', model: outerModel, tools: [new AgentTool({ agent: desk })] }), sessionService: new InMemorySessionService() });
    const run = async (newMessage: Content) => {
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
      return events;
    };

    const [request] = requestsIn(await run(user('wipe sdb')));
    expect(request.relayed).toEqual({ agent: 'ops', call: { id: 'w', name: 'wipe', args: { disk: 'sdb' } } });
    const done = await run(confirmationResponse(request, { decision: 'edit', args: { disk: 'sdd' } }));
    expect(wiped).toEqual(['sdd']);
    expect(done.flatMap((e) => e.functionResponses())).toEqual([
      {
        id: 'd',
        name: 'desk',
        response: { result: 'Wiped by ops.' },
        confirmation: { decision: 'edit', by: 'user', args: { disk: 'sdd' } },
        innerCalls: [{ agent: 'ops', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'edit', by: 'user', args: { disk: 'sdd' } } }],
      },
    ]);
    expect(done.at(-1)!.text()).toBe('Done.');
  });
});

describe('AgentTool: the outer session records the inner calls a grant or the confirmation policy settled', () => {
  const none = { mode: 'enforce', decision: 'none' };
  /** A `wipe` tool that needs approval, and an app grant that covers it. */
  const grantedWipe = async (grants: InMemoryGrantService, wiped: string[]) => {
    const wipe = wipeTool(wiped);
    return { wipe, grant: await grants.createGrant({ appName: 'ops', scope: 'app', toolName: 'wipe', schemaHash: toolSchemaHash(wipe.parameters) }) };
  };

  it('an enforced policy: the inner calls it allowed and denied are listed on the agent tool\'s response, kept across a restart', async () => {
    const policy: ConfirmationPolicySetting = ({ tool }) =>
      tool.name === 'wipe' ? { decision: 'deny', reason: 'no wiping on Fridays' } : tool.name === 'note' ? { decision: 'allow', reason: 'notes are harmless' } : undefined;
    const { wiped, send, session } = setup([innerCalls, 'Janitor could not wipe.'], [janitorCalls, 'Not today.'], undefined, policy);

    const events = await send(user('clean up'), true);

    expect(wiped).toEqual([]);
    expect(requestsIn(events)).toEqual([]);
    const innerCallsListed = [
      { agent: 'janitor', call: { id: 'n', name: 'note' }, policy: { mode: 'enforce', decision: 'allow', reason: 'notes are harmless' } },
      {
        agent: 'janitor',
        call: { id: 'w', name: 'wipe' },
        confirmation: { decision: 'reject', by: 'policy', message: 'no wiping on Fridays' },
        policy: { mode: 'enforce', decision: 'deny', reason: 'no wiping on Fridays' },
      },
    ];
    expect(events.flatMap((e) => e.functionResponses())).toEqual([
      { id: 'j', name: 'janitor', response: { result: 'Janitor could not wipe.' }, policy: none, innerCalls: innerCallsListed },
    ]);
    const stored = JSON.parse(JSON.stringify((await session()).events)) as Event[];
    expect(stored.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionResponse?.id === 'j')!.functionResponse!.innerCalls).toEqual(innerCallsListed);
  });

  it('a shadow policy, and an enforced ask the person answered through the relay: each verdict is listed, the ask\'s from the inner request', async () => {
    const shadow = setup([innerCalls, 'Janitor done.'], [janitorCalls, 'All clean.'], undefined, { decide: () => ({ decision: 'allow' }), mode: 'shadow' });
    const [shadowRequest] = requestsIn(await shadow.send(user('clean up')));
    const shadowDone = await shadow.send(confirmationResponse(shadowRequest, { decision: 'approve' }), true);
    expect(shadow.wiped).toEqual(['sdb']);
    expect(shadowDone.flatMap((e) => e.functionResponses())[0].innerCalls).toEqual([
      { agent: 'janitor', call: { id: 'n', name: 'note' }, policy: { mode: 'shadow', decision: 'allow' } },
      { agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'approve', by: 'user' }, policy: { mode: 'shadow', decision: 'allow' } },
    ]);

    const asking = setup([innerCalls, 'Janitor done.'], [janitorCalls, 'All clean.'], undefined, ({ tool }) => (tool.name === 'note' ? { decision: 'ask', reason: 'check notes' } : undefined));
    const [noteRequest] = requestsIn(await asking.send(user('clean up')));
    expect(noteRequest.relayed).toEqual({ agent: 'janitor', call: { id: 'n', name: 'note', args: {} } });
    const [wipeRequest] = requestsIn(await asking.send(confirmationResponse(noteRequest, { decision: 'approve' }), true));
    const done = await asking.send(confirmationResponse(wipeRequest, { decision: 'reject', message: 'Not sdb.' }), true);
    expect(asking.wiped).toEqual([]);
    expect(done.flatMap((e) => e.functionResponses())[0].innerCalls).toEqual([
      { agent: 'janitor', call: { id: 'n', name: 'note' }, confirmation: { decision: 'approve', by: 'user' }, policy: { mode: 'enforce', decision: 'ask', reason: 'check notes' } },
      { agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'reject', by: 'user', message: 'Not sdb.' }, policy: { mode: 'enforce', decision: 'none' } },
    ]);
  });

  it('a sub-agent the inner agent transferred to: its granted call is listed under its own name', async () => {
    const wiped: string[] = [];
    const grants = new InMemoryGrantService();
    const { wipe, grant } = await grantedWipe(grants, wiped);
    const ops = new LlmAgent({ name: 'ops', description: 'Runs operations.', model: new ScriptedModel([{ calls: [{ id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }, 'Wiped by ops.']), tools: [wipe] });
    const desk = new LlmAgent({ name: 'desk', description: 'Routes work.', model: new ScriptedModel([{ calls: [{ name: 'transfer_to_agent', args: { agentName: 'ops' } }] }]), subAgents: [ops] });
    const outerModel = new ScriptedModel([{ calls: [{ id: 'd', name: 'desk', args: { request: 'wipe sdb' } }] }, 'Done.']);
    const runner = new Runner({ appName: 'ops', agent: new LlmAgent({ name: 'main', model: outerModel, tools: [new AgentTool({ agent: desk })] }), sessionService: new InMemorySessionService(), grantService: grants });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('wipe sdb') })) events.push(event);

    expect(wiped).toEqual(['sdb']);
    expect(events.flatMap((e) => e.functionResponses())).toEqual([
      { id: 'd', name: 'desk', response: { result: 'Wiped by ops.' }, innerCalls: [{ agent: 'ops', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'approve', by: 'grant', grantId: grant.id } }] },
    ]);
  });

  it('an agent tool inside an agent tool: the granted call of the innermost agent is listed on the outermost response too, and on a failed call', async () => {
    const grants = new InMemoryGrantService();
    const wiped: string[] = [];
    const { wipe, grant } = await grantedWipe(grants, wiped);
    const worker = new LlmAgent({ name: 'worker', description: 'Wipes.', model: new ScriptedModel([{ calls: [{ id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }, 'Wiped.']), tools: [wipe] });
    // The middle agent's model fails after the worker answered: the middle agent tool's call fails.
    const middleModel = new ScriptedModel([{ calls: [{ id: 'k', name: 'worker', args: { request: 'wipe sdb' } }] }, new Error('the middle model broke')]);
    const middle = new LlmAgent({ name: 'middle', description: 'Delegates.', model: middleModel, tools: [new AgentTool({ agent: worker })] });
    const outerModel = new ScriptedModel([{ calls: [{ id: 'm', name: 'middle', args: { request: 'wipe sdb' } }] }, 'Done.']);
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const runner = new Runner({
      appName: 'ops',
      agent: new LlmAgent({ name: 'main', model: outerModel, tools: [new AgentTool({ agent: middle })] }),
      sessionService: new InMemorySessionService(),
      grantService: grants,
      tracing: { tracerProvider },
    });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('wipe sdb') })) events.push(event);

    expect(wiped).toEqual(['sdb']);
    const [outer] = events.flatMap((e) => e.functionResponses());
    expect(outer).toMatchObject({ id: 'm', name: 'middle', isError: true });
    expect(outer.innerCalls).toEqual([{ agent: 'worker', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'approve', by: 'grant', grantId: grant.id } }]);
    // The spans: the granted call's own, and each agent tool call's, name the grant.
    const span = (name: string) => exporter.getFinishedSpans().find((s) => s.name === `execute_tool ${name}`)!.attributes;
    expect(span('wipe')).toMatchObject({ 'toolsmith.tool.confirmation.by': 'grant', 'toolsmith.tool.confirmation.grant_id': grant.id });
    expect(span('worker')).toMatchObject({ 'toolsmith.tool.inner_calls': 1, 'toolsmith.tool.inner_calls.grant_ids': [grant.id] });
    expect(span('middle')).toMatchObject({ 'toolsmith.tool.inner_calls': 1, 'toolsmith.tool.inner_calls.grant_ids': [grant.id] });
  });
  /**
   * `main` calls `boss` (an agent tool), whose model calls `janitor` (an agent tool inside it), whose model
   * calls `wipe`, which needs approval: the person decides on the innermost call, each step on a new Runner
   * from the session store's JSON (another process).
   */
  function nested(grantService?: InMemoryGrantService) {
    const wiped: string[] = [];
    const wipe = wipeTool(wiped);
    const janitorModel = new ScriptedModel([{ calls: [{ id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }, 'Janitor done.']);
    const janitor = new LlmAgent({ name: 'janitor', description: 'Cleans disks.', model: janitorModel, tools: [wipe] });
    const boss = new LlmAgent({ name: 'boss', description: 'Delegates.', model: new ScriptedModel([{ calls: [{ id: 'k', name: 'janitor', args: { request: 'wipe sdb' } }] }, 'Boss done.']), tools: [new AgentTool({ agent: janitor })] });
    const main = new LlmAgent({ name: 'main', model: new ScriptedModel([{ calls: [{ id: 'b', name: 'boss', args: { request: 'clean' } }] }, 'All clean.']), tools: [new AgentTool({ agent: boss })] });
    let store: unknown = new InMemorySessionService().toJSON();
    const send = async (newMessage: Content): Promise<Event[]> => {
      const sessionService = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(store)));
      const events: Event[] = [];
      for await (const event of new Runner({ appName: 'ops', agent: main, sessionService, grantService }).run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
      store = sessionService.toJSON();
      return events;
    };
    // The sessions and their events (a run's claim moves the store's fence, whatever it stores).
    const stored = () => JSON.stringify((store as { sessions: unknown }).sessions);
    return { wiped, janitorModel, send, stored };
  }

  it('an agent tool inside an agent tool: the relayed request names the innermost waiting call, an edit is checked against its tool (refused ones leave the request open), and the response lists only that call', async () => {
    const { wiped, janitorModel, send, stored } = nested();
    const [request] = requestsIn(await send(user('clean up')));
    expect(request).toMatchObject({ originalFunctionCall: { id: 'b', name: 'boss' }, hint: 'Wipe sdb?', relayed: { agent: 'janitor', call: { id: 'w', name: 'wipe', args: { disk: 'sdb' } } } });
    const before = stored();

    // Edits of the middle call's arguments, or outside wipe's schema, are refused for wipe; nothing is stored.
    for (const args of [{ request: 'something else' }, { disk: '/dev/sda' }]) {
      const refused = await send(confirmationResponse(request, { decision: 'edit', args }));
      expect(refused.map((e) => e.errorCode)).toEqual(['CONFIRMATION_EDIT_INVALID']);
      expect(refused[0].errorMessage).toContain('were refused for tool "wipe"');
      expect(stored()).toBe(before);
    }
    expect(janitorModel.callCount).toBe(1);

    const done = await send(confirmationResponse(request, { decision: 'edit', args: { disk: 'sdd' } }));
    expect(wiped).toEqual(['sdd']);
    expect(done.flatMap((e) => e.functionResponses())).toEqual([{
      id: 'b',
      name: 'boss',
      response: { result: 'Boss done.' },
      confirmation: { decision: 'edit', by: 'user', args: { disk: 'sdd' } },
      innerCalls: [{ agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'edit', by: 'user', args: { disk: 'sdd' } } }],
    }]);
    expect(done.at(-1)!.text()).toBe('All clean.');
  });

  it('an agent tool inside an agent tool: remember grants the innermost tool; reject and respond are listed on the innermost call only', async () => {
    const grants = new InMemoryGrantService();
    const remembered = nested(grants);
    const [request] = requestsIn(await remembered.send(user('clean up')));
    const approved = await remembered.send(confirmationResponse(request, { decision: 'approve', remember: { scope: 'user' } }));
    const [grant] = await grants.listGrants({ appName: 'ops' });
    expect(grant).toMatchObject({ scope: 'user', toolName: 'wipe' });
    expect(approved.flatMap((e) => e.functionResponses())[0].innerCalls).toEqual([
      { agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'approve', by: 'user', grantId: grant.id } },
    ]);

    for (const [answer, confirmation] of [
      [{ decision: 'reject', message: 'Not sdb.' }, { decision: 'reject', by: 'user', message: 'Not sdb.' }],
      [{ decision: 'respond', result: { wiped: 'by hand' } }, { decision: 'respond', by: 'user' }],
    ] as const) {
      const { wiped, send } = nested();
      const [asked] = requestsIn(await send(user('clean up')));
      const done = await send(confirmationResponse(asked, answer as ConfirmationAnswer));
      expect(wiped).toEqual([]);
      expect(done.flatMap((e) => e.functionResponses())[0].innerCalls).toEqual([{ agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation }]);
    }
  });

  it('lists every call the person decided on through the relay, a plain approval included', async () => {
    const plain = setup([{ calls: [{ id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }, 'Janitor done.'], [janitorCalls, 'All clean.']);
    const [request] = requestsIn(await plain.send(user('clean up')));
    const done = await plain.send(confirmationResponse(request, { decision: 'approve' }), true);
    expect(done.flatMap((e) => e.functionResponses())).toEqual([
      { id: 'j', name: 'janitor', response: { result: 'Janitor done.' }, innerCalls: [{ agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'approve', by: 'user' } }] },
    ]);
  });
});
