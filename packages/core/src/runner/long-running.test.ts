import { LlmAgent } from '../agents/llm-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { longRunningResponse } from '../confirmation/long-running-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import { Param } from '../decorators/param.decorator';
import { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { LONG_RUNNING_NOTE } from '../tools/base-tool';
import { Tool } from '../tools/tool';
import { Toolset } from '../tools/toolset';
import { send, shownResponses } from './__fixtures__/confirmation-fixtures';
import { FnTool, user, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

@Toolset()
class ExportTools {
  started: string[] = [];

  @Tool({ description: 'Starts exporting a table; returns a ticket.', longRunning: true })
  startExport(@Param('table') table: string) {
    this.started.push(table);
    return { status: 'pending', ticketId: `T-${this.started.length}` };
  }
}

function setup(script: ConstructorParameters<typeof ScriptedModel>[0]) {
  const tools = new ExportTools();
  const model = new ScriptedModel(script);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: 'warehouse',
    agent: new LlmAgent({ name: 'exporter', model, tools: [tools, weatherTool()] }),
    sessionService,
  });
  const stored = async () => (await sessionService.getSession({ appName: 'warehouse', userId: 'u1', sessionId: 's1' }))!.events;
  return { tools, model, runner, stored };
}

const startExport = { calls: [{ id: 'lr', name: 'startExport', args: { table: 'orders' } }] };
const update = (response: Record<string, unknown>, willContinue?: boolean): Content =>
  longRunningResponse({ id: 'lr', name: 'startExport', response, willContinue });

describe('long-running tools', () => {
  it('sends the initial result as the response, lists the id in longRunningToolIds and ends the invocation', async () => {
    const { tools, model, runner } = setup([startExport, 'never reached']);

    const events = await send(runner, user('export orders'));

    expect(tools.started).toEqual(['orders']);
    expect(model.callCount).toBe(1);
    expect(model.requests[0].tools.find((d) => d.name === 'startExport')!.description).toBe(
      `Starts exporting a table; returns a ticket.\n\n${LONG_RUNNING_NOTE}`,
    );
    const last = events.at(-1)!;
    expect(last.functionResponses()).toEqual([{ id: 'lr', name: 'startExport', response: { status: 'pending', ticketId: 'T-1' } }]);
    expect(last.longRunningToolIds).toEqual(['lr']);
    expect(last.isFinalResponse()).toBe(true);
  });

  it('takes an intermediate then a final update in later runs; the model gets each and continues', async () => {
    const { tools, model, runner, stored } = setup([startExport, 'The export is half done.', 'Your export is ready at /exports/T-1.csv.']);
    await send(runner, user('export orders'));

    const halfway = await send(runner, update({ status: 'running', progress: 50 }, true));
    expect(halfway.map((e) => e.text())).toEqual(['The export is half done.']);
    // The update replaces the ticket as the call's response, right after the call.
    expect(model.requests[1].contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'lr', name: 'startExport', args: { table: 'orders' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'startExport', response: { status: 'running', progress: 50 }, willContinue: true } }] },
    ]);
    expect([...findPendingCalls(await stored()).longRunning.keys()]).toEqual(['lr']);

    const done = await send(runner, update({ status: 'done', url: '/exports/T-1.csv' }));
    expect(done.map((e) => e.text())).toEqual(['Your export is ready at /exports/T-1.csv.']);
    expect(shownResponses(model.requests[2]).at(-1)).toEqual({ id: 'lr', name: 'startExport', response: { status: 'done', url: '/exports/T-1.csv' } });
    expect(model.requests[2].contents.at(-2)!.parts[0].text).toBe('The export is half done.');
    expect(findPendingCalls(await stored()).longRunning.size).toBe(0);
    expect(tools.started).toEqual(['orders']); // never called again

    const late = await send(runner, update({ status: 'done' }));
    expect(late.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(late[0].errorMessage).toContain('already answered');
    expect(model.callCount).toBe(3);
  });

  it('reads a null member of an update as absent, as JSON clients write an absent field: question, willContinue, what only the runner writes', async () => {
    const { model, runner, stored } = setup([startExport, 'Still going.', 'Done.']);
    await send(runner, user('export orders'));
    const lr = (response: Record<string, unknown>, members: Record<string, unknown>): Content => ({ role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'startExport', response, ...members } as never }] });

    // An intermediate update with no question: it does not pause, the model gets it.
    const halfway = await send(runner, lr({ progress: 50 }, { willContinue: true, question: null, isError: null }));
    expect(halfway.map((e) => e.errorCode ?? e.text())).toEqual(['Still going.']);
    expect([...findPendingCalls(await stored()).longRunning.keys()]).toEqual(['lr']);
    // willContinue null is no continuation: the final update.
    const done = await send(runner, lr({ status: 'done' }, { willContinue: null, question: null }));
    expect(done.map((e) => e.errorCode ?? e.text())).toEqual(['Done.']);
    expect(findPendingCalls(await stored()).longRunning.size).toBe(0);
    expect(model.callCount).toBe(3);
  });

  it('refuses responses for ids that are not pending, for another tool name, or that are not objects', async () => {
    const { model, runner, stored } = setup([startExport, { calls: [{ id: 'w', name: 'getWeather', args: { city: 'Oslo' } }] }, 'Sunny.']);
    await send(runner, user('export orders'));
    const count = (await stored()).length;

    const refusals: Array<[Content, string]> = [
      [longRunningResponse({ id: 'nope', name: 'startExport', response: { status: 'done' } }), 'FUNCTION_RESPONSE_NOT_PENDING'],
      [longRunningResponse({ id: 'lr', name: 'getWeather', response: { status: 'done' } }), 'INVALID_FUNCTION_RESPONSE'],
      [{ role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'startExport', response: 'done' as unknown as Record<string, unknown> } }] }, 'INVALID_FUNCTION_RESPONSE'],
      [{ role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'startExport', response: {}, willContinue: 'yes' as unknown as boolean } }] }, 'INVALID_FUNCTION_RESPONSE'],
      [{ role: 'user', parts: [{ functionResponse: { name: 'startExport', response: {} } as never }] }, 'INVALID_FUNCTION_RESPONSE'],
      // What only the runner writes (an audit of a grant, inner calls, a failure), or no function response has.
      [{ role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'startExport', response: { status: 'done' }, confirmation: { decision: 'approve', by: 'grant', grantId: 'g-1' } } }] }, 'INVALID_FUNCTION_RESPONSE'],
      [{ role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'startExport', response: {}, innerCalls: [], isError: true, foo: 1 } as never }] }, 'INVALID_FUNCTION_RESPONSE'],
    ];
    const messages: string[] = [];
    for (const [message, code] of refusals) {
      const events = await send(runner, message);
      expect(events.map((e) => e.errorCode)).toEqual([code]);
      messages.push(events[0].errorMessage!);
    }
    expect(messages.at(-1)).toContain('it has members "innerCalls", "isError" and "foo", which a client\'s update does not carry');
    expect(model.callCount).toBe(1);
    expect(await stored()).toHaveLength(count); // a refused message stores nothing, not even its error event

    // A call that already got its (only) response cannot be answered again either.
    await send(runner, user('weather in Oslo?'));
    const again = await send(runner, { role: 'user', parts: [{ functionResponse: { id: 'w', name: 'getWeather', response: { report: 'rain' } } }] });
    expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(again[0].errorMessage).toContain('already answered');
  });

  it('a refused update stores nothing, not its error event: sent again under its messageId it is refused again, and a session made for it is not kept', async () => {
    const { model, runner, stored } = setup([startExport, 'Done.']);
    await send(runner, user('export orders'));
    const before = await stored();
    const refusedRun = async (sessionId = 's1') => {
      const events = [];
      for await (const event of runner.run({ userId: 'u1', sessionId, messageId: 'm-1', newMessage: { role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'startExport', response: { status: 'done' }, willContinue: 'yes' as never } }] } })) events.push(event);
      return events.map((event) => event.errorCode);
    };
    expect(await refusedRun()).toEqual(['INVALID_FUNCTION_RESPONSE']);
    expect(await stored()).toEqual(before);
    expect(await refusedRun()).toEqual(['INVALID_FUNCTION_RESPONSE']); // checked again: nothing of it was stored
    expect(await stored()).toEqual(before);
    expect(await refusedRun('s-new')).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(await runner.sessionService.getSession({ appName: 'warehouse', userId: 'u1', sessionId: 's-new' })).toBeUndefined();
    expect(model.callCount).toBe(1);
    expect([...findPendingCalls(await stored()).longRunning.keys()]).toEqual(['lr']);
  });

  it('when the model call after a final update fails, sending it again does not retry; a new message is the way back', async () => {
    const { model, runner, stored } = setup([startExport, new Error('rate limited'), 'Your export is ready at /x.csv.']);
    await send(runner, user('export orders'));
    const final = update({ status: 'done', url: '/x.csv' });
    const sendWithId = async (message: Content) => {
      const events = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', messageId: 'final-1', newMessage: message })) events.push(event);
      return events;
    };

    const failed = await sendWithId(final);
    expect(failed.map((e) => e.errorCode)).toEqual(['PROVIDER_ERROR']);
    const after = await stored();
    expect(after.slice(-2).map((e) => [e.author, e.errorCode])).toEqual([['user', undefined], ['exporter', 'PROVIDER_ERROR']]);
    expect(findPendingCalls(after).longRunning.size).toBe(0); // the update was taken

    expect((await sendWithId(final)).map((e) => e.errorCode)).toEqual(['PROVIDER_ERROR']); // the first send's events, nothing run
    expect((await send(runner, final)).map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(model.callCount).toBe(2);
    expect(await stored()).toHaveLength(after.length);

    const back = await send(runner, user('Is my export ready?'));
    expect(back.map((e) => e.text())).toEqual(['Your export is ready at /x.csv.']);
    expect(shownResponses(model.requests[2])).toEqual([{ id: 'lr', name: 'startExport', response: { status: 'done', url: '/x.csv' } }]);
    expect(model.requests[2].contents.flatMap((c) => c.parts).some((p) => p.text?.includes('rate limited'))).toBe(false);
  });

  it('asks first when a long-running tool also needs confirmation; the initial result comes after approval', async () => {
    const started: string[] = [];
    const review = new FnTool('startReview', (args) => (started.push(String(args.doc)), { status: 'queued' }), { longRunning: true, requireConfirmation: true });
    const model = new ScriptedModel([{ calls: [{ id: 'rv', name: 'startReview', args: { doc: 'contract' } }] }, 'Review finished.']);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'legal', agent: new LlmAgent({ name: 'clerk', model, tools: [review] }), sessionService });

    const paused = await send(runner, user('review the contract'));
    expect(started).toEqual([]);
    const approved = await send(runner, confirmationResponse(confirmationRequests(paused.at(-1)!)[0].call, { confirmed: true }));
    expect(started).toEqual(['contract']);
    expect(approved).toHaveLength(1);
    expect(approved[0].longRunningToolIds).toEqual(['rv']);
    expect(model.callCount).toBe(1);

    const done = await send(runner, longRunningResponse({ id: 'rv', name: 'startReview', response: { status: 'approved' } }));
    expect(done.map((e) => e.text())).toEqual(['Review finished.']);
  });
});
