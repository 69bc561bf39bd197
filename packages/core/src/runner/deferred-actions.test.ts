import { LlmAgent } from '../agents/llm-agent';
import { LoopAgent } from '../agents/loop-agent';
import { exitLoop } from '../builtins/exit-loop';
import { TRANSFER_TO_AGENT } from '../builtins/transfer-to-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import type { Event } from '../events/event';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel, type ScriptedTurn } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** A refund that always needs approval, and a log of the refunds that ran. */
function refundTool(log: number[]) {
  return new FnTool('refund', (args) => (log.push(Number(args.amount)), { refunded: args.amount }), { requireConfirmation: true });
}

const reload = (service: InMemorySessionService) => InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service.toJSON())));

const requestsIn = (events: Event[]) => events.flatMap((e) => confirmationRequests(e));

/** front (refund + transfer) → specialist; builds a fresh tree of models from where each script stands. */
function transferApp(service: InMemorySessionService, done = { front: 0, specialist: 0 }) {
  const refunds: number[] = [];
  const frontScript: ScriptedTurn[] = [
    { calls: [{ id: 't', name: TRANSFER_TO_AGENT, args: { agentName: 'specialist' } }, { id: 'r', name: 'refund', args: { amount: 250 } }] },
    'front should not speak again',
  ];
  const front = new ScriptedModel(frontScript.slice(done.front));
  const specialist = new ScriptedModel(['Specialist here: the refund went through.'].slice(done.specialist));
  const agent = new LlmAgent({
    name: 'front',
    model: front,
    tools: [refundTool(refunds)],
    subAgents: [new LlmAgent({ name: 'specialist', model: specialist })],
  });
  return { runner: new Runner({ appName: 'app', agent, sessionService: service }), front, specialist, refunds };
}

describe('flow actions of calls answered in the same response as a call waiting for confirmation', () => {
  it.each([
    ['in one process', false],
    ['after a restart (JSON round trip)', true],
  ])('applies a transfer once the waiting call is settled (%s)', async (_label, restart) => {
    const service = new InMemorySessionService();
    const first = transferApp(service);
    const paused = await send(first.runner, user('refund 250 and hand me over'));
    // While the refund waits, the transfer does nothing: the invocation pauses in front.
    expect(paused.map((e) => e.author)).toEqual(['front', 'front', 'front']);
    expect(paused[1].actions.transferToAgent).toBe('specialist');
    expect(first.specialist.callCount).toBe(0);

    const second = restart ? transferApp(reload(service), { front: first.front.callCount, specialist: 0 }) : first;
    const answered = await send(second.runner, confirmationResponse(requestsIn(paused)[0].call, { confirmed: true }));

    expect([...first.refunds, ...(restart ? second.refunds : [])]).toEqual([250]);
    expect(answered.map((e) => e.author)).toEqual(['front', 'specialist']);
    expect(answered[0].functionResponses().map((r) => r.id)).toEqual(['r']);
    expect(answered[0].actions.transferToAgent).toBe('specialist');
    expect(answered[1].text()).toBe('Specialist here: the refund went through.');
    expect(first.front.callCount + (restart ? second.front.callCount : 0)).toBe(1);
  });

  it('applies skipSummarization once the last waiting call is settled, also when it is denied', async () => {
    const refunds: number[] = [];
    const notify = new FnTool('notify', (_a, ctx) => {
      ctx.actions.skipSummarization = true;
      return { sent: true };
    });
    const model = new ScriptedModel([
      { calls: [{ id: 'n', name: 'notify' }, { id: 'r1', name: 'refund', args: { amount: 300 } }, { id: 'r2', name: 'refund', args: { amount: 400 } }] },
      'never reached',
    ]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model, tools: [notify, refundTool(refunds)] }) });

    const paused = await send(runner, user('notify and refund twice'));
    const [first, second] = requestsIn(paused);
    const partly = await send(runner, confirmationResponse(second.call, { confirmed: true }));
    expect(partly.map((e) => e.functionResponses().map((r) => r.id))).toEqual([['r2']]);
    expect(partly[0].actions.skipSummarization).toBeUndefined(); // r1 still waits: nothing is applied yet

    const settled = await send(runner, confirmationResponse(first.call, { confirmed: false }));

    expect(settled).toHaveLength(1);
    expect(settled[0].actions.skipSummarization).toBe(true);
    expect(settled[0].isFinalResponse()).toBe(true);
    expect(refunds).toEqual([400]);
    expect(model.callCount).toBe(1);
  });

  it('applies an escalation (exitLoop) once the waiting call is settled: the loop ends', async () => {
    const refunds: number[] = [];
    const model = new ScriptedModel([
      { calls: [{ id: 'r', name: 'refund', args: { amount: 250 } }, { id: 'x', name: 'exit_loop' }] },
      'should not be called',
    ]);
    const loop = new LoopAgent({ name: 'loop', maxIterations: 3, subAgents: [new LlmAgent({ name: 'worker', model, tools: [refundTool(refunds), exitLoop] })] });
    const runner = new Runner({ appName: 'app', agent: loop });

    const paused = await send(runner, user('refund and stop'));
    expect(paused[1].actions.escalate).toBe(true);
    const answered = await send(runner, confirmationResponse(requestsIn(paused)[0].call, { confirmed: true }));

    expect(refunds).toEqual([250]);
    expect(answered.map((e) => e.functionResponses().map((r) => r.id))).toEqual([['r']]);
    expect(answered[0].actions.escalate).toBe(true);
    expect(model.callCount).toBe(1);
  });
});
