import { BaseAgent } from '../agents/base-agent';
import { LlmAgent } from '../agents/llm-agent';
import { LoopAgent } from '../agents/loop-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import { Param } from '../decorators/param.decorator';
import { Event } from '../events/event';
import { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel, ScriptedTurn } from '../testing/scripted-model';
import { Tool } from '../tools/tool';
import { Toolset } from '../tools/toolset';
import { send } from './__fixtures__/confirmation-fixtures';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** The refunds that really happened in one "process". */
class Ledger {
  readonly refunds: number[] = [];
}

@Toolset()
class PaymentTools {
  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Refunds an amount.', requireConfirmation: (args: { amount: number }) => args.amount > 100 })
  refund(@Param('amount') amount: number) {
    this.ledger.refunds.push(amount);
    return { refunded: amount };
  }
}

type Scripts = Record<string, ScriptedTurn[]>;
type Tree = (models: Record<string, ScriptedModel>) => BaseAgent;

/** A brand-new session service built from the old one's JSON text: what another process would load. */
const reload = (service: InMemorySessionService) => InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service.toJSON())));

const refundCall = (id: string, amount: number) => ({ id, name: 'refund', args: { amount } });

/**
 * Plays a conversation: the first message, then each answer built from the events so far. With
 * `restart`, every step runs in a new "process": a new runner, models and ledger on the session
 * service's JSON; each model continues its script where the previous process left it.
 */
async function conversation(tree: Tree, scripts: Scripts, steps: Array<Content | ((events: Event[]) => Content)>, restart: boolean) {
  let service = new InMemorySessionService();
  const done: Record<string, number> = {};
  const refunds: number[] = [];
  const events: Event[] = [];
  const perStep: Event[][] = [];
  let current: { runner: Runner; models: Record<string, ScriptedModel>; ledger: Ledger } | undefined;
  const start = () => {
    const models = Object.fromEntries(Object.entries(scripts).map(([name, script]) => [name, new ScriptedModel(script.slice(done[name] ?? 0))]));
    const ledger = new Ledger();
    const runner = new Runner({ appName: 'shop', agent: tree(models), providers: [{ provide: Ledger, useValue: ledger }], sessionService: service });
    return { runner, models, ledger };
  };
  const settle = () => {
    if (!current) return;
    for (const [name, model] of Object.entries(current.models)) done[name] = (done[name] ?? 0) + model.callCount;
    refunds.push(...current.ledger.refunds);
  };
  for (const step of steps) {
    if (!current || restart) {
      settle();
      if (current) service = reload(service);
      current = start();
      if (!restart) for (const name of Object.keys(scripts)) done[name] = 0;
    }
    const produced = await send(current.runner, typeof step === 'function' ? step(events) : step);
    events.push(...produced);
    perStep.push(produced);
  }
  settle();
  const session = await service.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' });
  return { perStep, events, refunds, calls: done, session: session! };
}

/** Approves (or denies) the first open request among the events so far. */
const answer =
  (confirmed: boolean, which = 0) =>
  (events: Event[]): Content => {
    const open = findPendingCalls(events).confirmations;
    const requests = events.flatMap((e) => confirmationRequests(e)).filter((r) => open.has(r.call.id));
    return confirmationResponse(requests[which].call, { confirmed });
  };

/** What each step yielded: author and text, function call names or response ids. */
const shape = (events: Event[]) => events.map((e) => `${e.author}: ${e.text() || e.functionCalls().map((c) => c.name).join(',') || e.functionResponses().map((r) => r.id).join(',')}`);

const both = async (tree: Tree, scripts: Scripts, steps: Array<Content | ((events: Event[]) => Content)>) => {
  const same = await conversation(tree, scripts, steps, false);
  const restarted = await conversation(tree, scripts, steps, true);
  expect(restarted.perStep.map(shape)).toEqual(same.perStep.map(shape));
  expect(restarted.refunds).toEqual(same.refunds);
  expect(restarted.calls).toEqual(same.calls);
  expect(restarted.session.state).toEqual(same.session.state);
  return same;
};

describe('workflow agents resume where a confirmation paused them (in one process and after a restart)', () => {
  const pipeline: Tree = (models) =>
    new SequentialAgent({
      name: 'pipeline',
      subAgents: [
        new LlmAgent({ name: 'billing', model: models.billing, tools: [PaymentTools] }),
        new LlmAgent({ name: 'notify', model: models.notify, outputKey: 'notice' }),
      ],
    });

  it('SequentialAgent: the paused sub-agent finishes its turn, then the following sub-agents run', async () => {
    const run = await both(pipeline, { billing: [{ calls: [refundCall('r1', 250)] }, 'Refunded 250.'], notify: ['Customer notified.'] }, [
      user('refund 250'),
      answer(true),
    ]);

    expect(run.perStep.map(shape)).toEqual([
      ['billing: refund', 'billing: toolsmith_request_confirmation'],
      ['billing: r1', 'billing: Refunded 250.', 'notify: Customer notified.'],
    ]);
    expect(run.refunds).toEqual([250]);
    expect(run.calls).toEqual({ billing: 2, notify: 1 });
    expect(run.session.state).toEqual({ notice: 'Customer notified.' });
    // The position is in the stored request event.
    const request = run.events.find((e) => confirmationRequests(e).length > 0)!;
    expect(request.actions.workflowPositions).toEqual({ pipeline: { subAgent: 'billing' } });
  });

  it('SequentialAgent: a denial also lets the sequence go on', async () => {
    const run = await both(pipeline, { billing: [{ calls: [refundCall('r1', 250)] }, 'Refund rejected.'], notify: ['Customer told.'] }, [
      user('refund 250'),
      answer(false),
    ]);
    expect(run.perStep[1].map((e) => e.author)).toEqual(['billing', 'billing', 'notify']);
    expect(run.perStep[1][0].functionResponses()[0]).toMatchObject({ id: 'r1', isError: true });
    expect(run.refunds).toEqual([]);
  });

  it('SequentialAgent: waits for every request of the paused step before going on', async () => {
    const run = await both(
      pipeline,
      { billing: [{ calls: [refundCall('r1', 300), refundCall('r2', 400)] }, 'Both refunded.'], notify: ['Customer notified.'] },
      [user('two refunds'), answer(true, 1), answer(true)],
    );
    expect(run.perStep.map(shape)).toEqual([
      ['billing: refund,refund', 'billing: toolsmith_request_confirmation,toolsmith_request_confirmation'],
      ['billing: r2'],
      ['billing: r1', 'billing: Both refunded.', 'notify: Customer notified.'],
    ]);
    expect(run.refunds).toEqual([400, 300]);
  });

  it('LoopAgent: continues the paused round (read from the session), then stops at maxIterations', async () => {
    const loop: Tree = (models) =>
      new LoopAgent({
        name: 'loop',
        maxIterations: 2,
        subAgents: [
          new LlmAgent({ name: 'worker', model: models.worker, tools: [PaymentTools] }),
          new LlmAgent({ name: 'reviewer', model: models.reviewer }),
        ],
      });
    const run = await both(
      loop,
      { worker: ['Nothing to refund yet.', { calls: [refundCall('r1', 250)] }, 'Refunded 250.'], reviewer: ['Keep going.', 'All good.'] },
      [user('work'), answer(true)],
    );
    expect(run.perStep.map(shape)).toEqual([
      ['worker: Nothing to refund yet.', 'reviewer: Keep going.', 'worker: refund', 'worker: toolsmith_request_confirmation'],
      ['worker: r1', 'worker: Refunded 250.', 'reviewer: All good.'],
    ]);
    expect(run.calls).toEqual({ worker: 3, reviewer: 2 });
    const request = run.events.find((e) => confirmationRequests(e).length > 0)!;
    expect(request.actions.workflowPositions).toEqual({ loop: { subAgent: 'worker', round: 1 } });
  });

  it('a SequentialAgent inside a LoopAgent: resumes both, and the next round starts the sequence from its beginning', async () => {
    const nested: Tree = (models) =>
      new LoopAgent({
        name: 'loop',
        maxIterations: 2,
        subAgents: [
          new SequentialAgent({
            name: 'steps',
            subAgents: [
              new LlmAgent({ name: 'intake', model: models.intake }),
              new LlmAgent({ name: 'billing', model: models.billing, tools: [PaymentTools] }),
              new LlmAgent({ name: 'notify', model: models.notify }),
            ],
          }),
        ],
      });
    const run = await both(
      nested,
      {
        intake: ['Order A.', 'Order B.'],
        billing: [{ calls: [refundCall('r1', 250)] }, 'Refunded A.', 'No refund for B.'],
        notify: ['Told A.', 'Told B.'],
      },
      [user('process'), answer(true)],
    );
    expect(run.perStep.map(shape)).toEqual([
      ['intake: Order A.', 'billing: refund', 'billing: toolsmith_request_confirmation'],
      ['billing: r1', 'billing: Refunded A.', 'notify: Told A.', 'intake: Order B.', 'billing: No refund for B.', 'notify: Told B.'],
    ]);
    const request = run.events.find((e) => confirmationRequests(e).length > 0)!;
    expect(request.actions.workflowPositions).toEqual({ steps: { subAgent: 'billing' }, loop: { subAgent: 'steps', round: 0 } });
  });

  it('LoopAgent: still finishes the paused round when maxIterations shrank before the answer', async () => {
    const service = new InMemorySessionService();
    const build = (maxIterations: number, worker: ScriptedModel) =>
      new Runner({
        appName: 'shop',
        agent: new LoopAgent({ name: 'loop', maxIterations, subAgents: [new LlmAgent({ name: 'worker', model: worker, tools: [PaymentTools] })] }),
        providers: [{ provide: Ledger, useValue: new Ledger() }],
        sessionService: service,
      });
    const paused = await send(build(3, new ScriptedModel(['Round 0.', { calls: [refundCall('r1', 250)] }])), user('work'));
    expect(paused.at(-1)!.actions.workflowPositions).toEqual({ loop: { subAgent: 'worker', round: 1 } });

    const worker = new ScriptedModel(['Refunded.']);
    const answered = await send(build(1, worker), answer(true)(paused));

    expect(shape(answered)).toEqual(['worker: r1', 'worker: Refunded.']);
    expect(worker.callCount).toBe(1);
  });

  it('a new message instead of an answer starts the workflow afresh (the request stays open)', async () => {
    const run = await conversation(
      pipeline,
      { billing: [{ calls: [refundCall('r1', 250)] }, 'Still waiting for approval.'], notify: ['Nothing to tell.'] },
      [user('refund 250'), user('status?')],
      false,
    );
    expect(run.perStep[1].map((e) => e.author)).toEqual(['billing', 'notify']);
    expect(findPendingCalls(run.events).confirmations.size).toBe(1);
  });
});
