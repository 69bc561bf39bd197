import { LlmAgent } from '../agents/llm-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { longRunningResponse } from '../confirmation/long-running-response';
import { Param } from '../decorators/param.decorator';
import { Event } from '../events/event';
import { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel, ScriptedTurn } from '../testing/scripted-model';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { send } from './__fixtures__/confirmation-fixtures';
import { user, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** What really happened in the outside world; a new process gets a new one. */
class Effects {
  readonly log: string[] = [];
}

@Toolset()
class OpsTools {
  constructor(private readonly effects: Effects) {}

  @Tool({ description: 'Refunds an amount.', requireConfirmation: (args: { amount: number }) => args.amount > 100 })
  refund(@Param('amount') amount: number, ctx: ToolContext) {
    this.effects.log.push(`refund ${amount} (${ctx.toolConfirmation ? 'approved' : 'no approval needed'})`);
    ctx.state.set('refunded', amount);
    return { refunded: amount };
  }

  @Tool({ description: 'Starts an export.', longRunning: true })
  startExport(@Param('table') table: string) {
    this.effects.log.push(`export ${table} started`);
    return { status: 'pending', ticketId: 'T-1' };
  }
}

const SCRIPT: ScriptedTurn[] = [
  {
    calls: [
      { id: 'w1', name: 'getWeather', args: { city: 'Paris' } },
      { id: 'r1', name: 'refund', args: { amount: 500 } },
      { id: 'x1', name: 'startExport', args: { table: 'orders' } },
    ],
  },
  'Refunded 500; the export is running.',
  'The export is done.',
];

/** One "process": its own runner, model, tools and effects, on a session service. */
function process(sessionService: InMemorySessionService, turnsDone: number) {
  const effects = new Effects();
  const model = new ScriptedModel((_request, index) => SCRIPT[turnsDone + index]);
  const runner = new Runner({
    appName: 'ops',
    agent: new LlmAgent({ name: 'assistant', model, tools: [OpsTools, weatherTool()] }),
    providers: [{ provide: Effects, useValue: effects }],
    sessionService,
  });
  return { effects, model, runner };
}

/** A brand-new session service built from the old one's JSON text: what another process would load. */
const reload = (service: InMemorySessionService) => InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service.toJSON())));

/** Events and requests without what differs from run to run (ids, times, the random request ids). */
function normalize(value: unknown): unknown {
  const text = JSON.stringify(value, (key, v) => (key === 'id' && typeof v === 'string' && v.startsWith('e-')) || key === 'timestamp' || key === 'invocationId' ? undefined : v);
  return JSON.parse(text.replace(/confirm-[0-9a-f-]{36}/g, 'confirm-*'));
}

/** Pause on a confirmation and a long-running call, approve, then finish the export: in one process or three. */
async function scenario(restartBetweenSteps: boolean) {
  let service = new InMemorySessionService();
  let current = process(service, 0);
  const events: Event[] = [];
  const requests: unknown[] = [];
  const effects: string[] = [];
  const step = async (message: Content | ((previous: Event[]) => Content)) => {
    const newMessage = typeof message === 'function' ? message(events) : message;
    if (restartBetweenSteps && events.length > 0) {
      effects.push(...current.effects.log);
      requests.push(...current.model.requests.map((r) => r.contents));
      service = reload(service);
      current = process(service, requests.length);
    }
    const produced = await send(current.runner, newMessage);
    events.push(...produced);
    return produced;
  };

  const paused = await step(user('weather, refund 500, export orders'));
  const answered = await step((previous) => confirmationResponse(confirmationRequests(previous.at(-1)!)[0].call, { confirmed: true }));
  const finished = await step(longRunningResponse({ id: 'x1', name: 'startExport', response: { status: 'done' } }));

  effects.push(...current.effects.log);
  requests.push(...current.model.requests.map((r) => r.contents));
  const session = await service.getSession({ appName: 'ops', userId: 'u1', sessionId: 's1' });
  return { paused, answered, finished, events, requests, effects, state: session!.state };
}

describe('resume from a stored session (JSON round trip = another process)', () => {
  it('completes after a restart exactly as it does in one process', async () => {
    const same = await scenario(false);
    const restarted = await scenario(true);

    // Sanity of the scenario itself.
    expect(same.paused.map((e) => e.functionCalls().map((c) => c.name).concat(e.functionResponses().map((r) => r.id)))).toEqual([
      ['getWeather', 'refund', 'startExport'],
      ['w1', 'x1'],
      ['toolsmith_request_confirmation'],
    ]);
    expect(same.answered.map((e) => e.text() || e.functionResponses().map((r) => r.id).join())).toEqual(['r1', 'Refunded 500; the export is running.']);
    expect(same.finished.map((e) => e.text())).toEqual(['The export is done.']);
    expect(same.effects).toEqual(['export orders started', 'refund 500 (approved)']);
    expect(same.state).toEqual({ refunded: 500 });
    // The model saw the three responses of its turn together, in call order, once the refund was settled.
    const afterApproval = same.requests[1] as Content[];
    expect(afterApproval[2].parts.map((p) => p.functionResponse!.id)).toEqual(['w1', 'r1', 'x1']);

    expect(normalize(restarted.events)).toEqual(normalize(same.events));
    expect(normalize(restarted.requests)).toEqual(normalize(same.requests));
    expect(restarted.effects).toEqual(same.effects);
    expect(restarted.state).toEqual(same.state);
  });

  it('refuses, after a restart, an answer that was already given before it and a forged one', async () => {
    const service = new InMemorySessionService();
    const first = process(service, 0);
    const paused = await send(first.runner, user('weather, refund 500, export orders'));
    const request = confirmationRequests(paused.at(-1)!)[0].call;
    await send(first.runner, confirmationResponse(request, { confirmed: true }));

    const second = process(reload(service), 2);
    const replayed = await send(second.runner, confirmationResponse(request, { confirmed: true }));
    const forged = await send(second.runner, confirmationResponse({ ...request, id: 'confirm-00000000-0000-0000-0000-000000000000' }, { confirmed: true }));

    expect(replayed.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(forged.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(second.effects.log).toEqual([]);
    expect(second.model.callCount).toBe(0);
  });

  it('resumes a denial after a restart: the new process tells the model and runs nothing', async () => {
    const service = new InMemorySessionService();
    const first = process(service, 0);
    const paused = await send(first.runner, user('weather, refund 500, export orders'));

    const second = process(reload(service), 1);
    const events = await send(second.runner, confirmationResponse(confirmationRequests(paused.at(-1)!)[0].call, { confirmed: false }));

    expect(events[0].functionResponses()).toEqual([expect.objectContaining({ id: 'r1', isError: true, response: { error: expect.objectContaining({ code: 'TOOL_CALL_REJECTED' }) } })]);
    expect(second.effects.log).toEqual([]);
    expect(second.model.callCount).toBe(1);
  });
});
