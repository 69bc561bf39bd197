import { LlmAgent } from '../agents/llm-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { longRunningResponse } from '../confirmation/long-running-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import type { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import { BaseTool } from '../tools/base-tool';
import type { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { ToolConfirmation } from '../state/event-actions';
import type { ToolContext } from '../tools/tool-context';
import { ScriptedModel } from '../testing/scripted-model';
import { send, shownResponses } from './__fixtures__/confirmation-fixtures';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

// An update of a long-running call asks the person a question (docs/long-running.md, "Asking the person
// in an update"): the run stores the update and pauses; the answer is checked like any; the tool runs
// again with it and what it returns is the call's next response; then the model is called. Every step
// runs on a new Runner built from a JSON round trip of the session service.

const FORM = { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'], additionalProperties: false };
const startExport = { calls: [{ id: 'lr', name: 'startExport', args: { table: 'orders' } }] };

/** What the tool saw each time it ran, and what it returns then (set per test). */
function setup(script: ConstructorParameters<typeof ScriptedModel>[0], onAnswer: (confirmation: ToolConfirmation, ctx: ToolContext) => Record<string, unknown>) {
  const seen: Array<ToolConfirmation | undefined> = [];
  const tool = functionTool<{ table: string }>({
    name: 'startExport',
    description: 'Starts exporting a table.',
    parameters: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
    isLongRunning: true,
    execute: (_args, ctx) => {
      seen.push(ctx.toolConfirmation && structuredClone(ctx.toolConfirmation));
      return ctx.toolConfirmation ? onAnswer(ctx.toolConfirmation, ctx) : { status: 'pending', ticket: 'T-1' };
    },
  });
  const model = new ScriptedModel(script);
  let service = new InMemorySessionService();
  // A new process for each step: the session service's JSON, a new Runner.
  const step = async (newMessage: Content): Promise<Event[]> => {
    service = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service.toJSON())));
    return send(new Runner({ appName: 'warehouse', agent: new LlmAgent({ name: 'exporter', model, tools: [tool] }), sessionService: service }), newMessage);
  };
  const stored = async () => (await service.getSession({ appName: 'warehouse', userId: 'u1', sessionId: 's1' }))!.events;
  return { seen, model, step, stored };
}

const asking = (question: Record<string, unknown>, willContinue = true): Content =>
  longRunningResponse({ id: 'lr', name: 'startExport', response: { status: 'blocked', rows: 12 }, willContinue, question });

describe('a long-running update asks the person a question', () => {
  it('stores the update, pauses on a request for the call, and takes no model call', async () => {
    const { model, step, stored } = setup([startExport, 'never reached'], () => ({}));
    await step(user('export orders'));

    const events = await step(asking({ hint: 'Keep the 12 locked rows?', payloadSchema: FORM }));

    expect(events).toHaveLength(1);
    const [pause] = events;
    expect(pause.author).toBe('exporter');
    const [request] = confirmationRequests(pause);
    expect(request).toMatchObject({ originalFunctionCall: { id: 'lr', name: 'startExport', args: { table: 'orders' } }, hint: 'Keep the 12 locked rows?', payloadSchema: FORM, askedBy: 'tool' });
    expect(request.call.args).toEqual({
      originalFunctionCall: { id: 'lr', name: 'startExport', args: { table: 'orders' } },
      toolConfirmation: { hint: 'Keep the 12 locked rows?', payloadSchema: FORM },
    });
    expect(pause.longRunningToolIds).toEqual([request.call.id]);
    expect(pause.actions.requestedToolConfirmations).toEqual({
      lr: { hint: 'Keep the 12 locked rows?', payloadSchema: FORM, confirmed: false, askedBy: 'tool', update: { response: { status: 'blocked', rows: 12 }, willContinue: true } },
    });
    const all = await stored();
    // The update is stored as sent (the user's event), then the request.
    expect(all.at(-2)!.content!.parts[0].functionResponse).toEqual({
      id: 'lr', name: 'startExport', response: { status: 'blocked', rows: 12 }, willContinue: true, question: { hint: 'Keep the 12 locked rows?', payloadSchema: FORM },
    });
    const pending = findPendingCalls(all);
    expect([...pending.confirmations.keys()]).toEqual([request.call.id]);
    expect(pending.confirmations.get(request.call.id)!.update).toEqual({ response: { status: 'blocked', rows: 12 }, willContinue: true });
    expect([...pending.longRunning.keys()]).toEqual(['lr']);
    expect(model.callCount).toBe(1);
  });

  it.each<[string, Content, string]>([
    ['without willContinue', asking({ hint: 'Keep them?' }, false), 'a "question" needs "willContinue": true'],
    ['not an object', asking('Keep them?' as unknown as Record<string, unknown>), '"question" must be an object'],
    ['with an unknown key', asking({ hint: 'Keep them?', schema: FORM }), '"question" has unknown keys (schema)'],
    ['with a hint that is not text', asking({ hint: 12 }), '"question.hint" must be text'],
    ['with an unusable payloadSchema', asking({ payloadSchema: { type: 'nonsense' } }), '"question.payloadSchema" is not a usable JSON Schema'],
  ])('refuses a question %s with INVALID_FUNCTION_RESPONSE and stores nothing', async (_case, message, problem) => {
    const { model, step, stored } = setup([startExport, 'never reached'], () => ({}));
    await step(user('export orders'));
    const before = (await stored()).length;

    const events = await step(message);

    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_FUNCTION_RESPONSE']);
    expect(events[0].errorMessage).toContain(problem);
    expect((await stored()).length).toBe(before);
    expect(model.callCount).toBe(1);
  });

  it('refuses a bad answer with every problem (form, remember, edit, forged id), keeps the question open, then runs the tool with the answer and calls the model', async () => {
    const { seen, model, step, stored } = setup([startExport, 'I kept the locked rows; the export goes on.', 'The export is ready.'], (confirmation) => ({
      status: 'running',
      keptLocked: (confirmation.payload as { keep: boolean }).keep,
    }));
    await step(user('export orders'));
    const [request] = (await step(asking({ hint: 'Keep the 12 locked rows?', payloadSchema: FORM }))).flatMap((e) => confirmationRequests(e));
    const before = (await stored()).length;

    const refusals: Array<[Content, string, string]> = [
      [confirmationResponse(request, { decision: 'approve', payload: { keep: 'yes' } }), 'INVALID_CONFIRMATION_ANSWER', 'its "payload" does not fill in the request\'s form'],
      [confirmationResponse(request, { decision: 'approve' }), 'INVALID_CONFIRMATION_ANSWER', 'the request is a form'],
      [confirmationResponse(request, { decision: 'approve', payload: { keep: true }, remember: { scope: 'session' } }), 'INVALID_CONFIRMATION_ANSWER', '"remember" (always allow) does not apply'],
      [confirmationResponse(request, { decision: 'edit', args: { table: 'users' }, payload: { keep: true } }), 'INVALID_CONFIRMATION_ANSWER', 'cannot be answered with "edit"'],
      [confirmationResponse({ ...request.call, id: 'confirm-forged' }, { decision: 'approve', payload: { keep: true } }), 'FUNCTION_RESPONSE_NOT_PENDING', 'confirm-forged'],
    ];
    for (const [answer, code, problem] of refusals) {
      const refused = await step(answer);
      expect(refused.map((e) => [e.errorCode, e.errorMessage?.includes(problem)])).toEqual([[code, true]]);
    }
    expect((await stored()).length).toBe(before);
    expect(seen).toEqual([undefined]);

    const answered = await step(confirmationResponse(request, { decision: 'approve', payload: { keep: true } }));

    expect(seen[1]).toEqual({
      confirmed: true,
      decision: 'approve',
      hint: 'Keep the 12 locked rows?',
      payload: { keep: true },
      request: { hint: 'Keep the 12 locked rows?', payloadSchema: FORM },
      update: { response: { status: 'blocked', rows: 12 }, willContinue: true },
    });
    expect(answered.map((e) => e.author)).toEqual(['exporter', 'exporter']);
    expect(answered[0].functionResponses()).toEqual([{ id: 'lr', name: 'startExport', response: { status: 'running', keptLocked: true }, willContinue: true }]);
    expect(answered[0].longRunningToolIds).toBeUndefined();
    expect(answered[1].text()).toBe('I kept the locked rows; the export goes on.');
    // The model sees the tool's new update as the call's latest response.
    expect(shownResponses(model.requests[1]).at(-1)).toEqual({ id: 'lr', name: 'startExport', response: { status: 'running', keptLocked: true }, willContinue: true });
    expect(JSON.stringify(model.requests[1].contents)).not.toContain('Keep the 12 locked rows?');
    const pending = findPendingCalls(await stored());
    expect([...pending.longRunning.keys()]).toEqual(['lr']);
    expect(pending.confirmations.size).toBe(0);

    // Replayed: the question was answered.
    const replayed = await step(confirmationResponse(request, { decision: 'approve', payload: { keep: false } }));
    expect(replayed.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(seen).toHaveLength(2);

    // The call goes on as before: the client's final update ends it.
    const done = await step(longRunningResponse({ id: 'lr', name: 'startExport', response: { status: 'done' } }));
    expect(done.map((e) => e.text())).toEqual(['The export is ready.']);
    expect(findPendingCalls(await stored()).longRunning.size).toBe(0);
  });

  it('gives the final response when the tool sets update.willContinue to false; later updates are refused', async () => {
    const { step, stored, model } = setup([startExport, 'The export finished without the locked rows.'], (confirmation) => {
      confirmation.update!.willContinue = false;
      return { status: 'done', skipped: 12 };
    });
    await step(user('export orders'));
    const [request] = (await step(asking({ hint: 'Skip the locked rows?' }))).flatMap((e) => confirmationRequests(e));

    const answered = await step(confirmationResponse(request, { decision: 'approve' }));

    expect(answered[0].functionResponses()).toEqual([{ id: 'lr', name: 'startExport', response: { status: 'done', skipped: 12 } }]);
    expect(answered[1].text()).toBe('The export finished without the locked rows.');
    expect(model.callCount).toBe(2);
    const pending = findPendingCalls(await stored());
    expect(pending.longRunning.size).toBe(0);
    expect(pending.answered.has('lr')).toBe(true);
    const late = await step(longRunningResponse({ id: 'lr', name: 'startExport', response: { status: 'done' } }));
    expect(late.map((e) => [e.errorCode, e.errorMessage?.endsWith('that call was already answered.')])).toEqual([['FUNCTION_RESPONSE_NOT_PENDING', true]]);
  });

  it('runs the tool with a rejection and its message, so it can cancel; what it returns is the update', async () => {
    const { seen, step } = setup([startExport, 'The export was cancelled.'], (confirmation) => {
      confirmation.update!.willContinue = false;
      return { status: 'cancelled', because: confirmation.message };
    });
    await step(user('export orders'));
    const [request] = (await step(asking({ hint: 'Keep the 12 locked rows?', payloadSchema: FORM }))).flatMap((e) => confirmationRequests(e));

    // A rejection needs no payload, even on a form.
    const answered = await step(confirmationResponse(request, { decision: 'reject', message: 'Stop the export.' }));

    expect(seen[1]).toMatchObject({ confirmed: false, decision: 'reject', message: 'Stop the export.', update: { response: { status: 'blocked', rows: 12 } } });
    expect(answered[0].functionResponses()).toEqual([
      { id: 'lr', name: 'startExport', response: { status: 'cancelled', because: 'Stop the export.' }, confirmation: { decision: 'reject', by: 'user', message: 'Stop the export.' } },
    ]);
    expect(answered[1].text()).toBe('The export was cancelled.');
  });

  it('makes a "respond" answer the call\'s next update without running the tool', async () => {
    const { seen, step, stored } = setup([startExport, 'Noted: the rows stay locked.'], () => ({ never: 'run' }));
    await step(user('export orders'));
    const [request] = (await step(asking({ hint: 'What about the locked rows?' }))).flatMap((e) => confirmationRequests(e));

    const answered = await step(confirmationResponse(request, { decision: 'respond', result: { note: 'leave them locked' } }));

    expect(seen).toEqual([undefined]);
    expect(answered[0].functionResponses()).toEqual([
      { id: 'lr', name: 'startExport', response: { note: 'leave them locked' }, willContinue: true, confirmation: { decision: 'respond', by: 'user' } },
    ]);
    expect(answered[1].text()).toBe('Noted: the rows stay locked.');
    expect([...findPendingCalls(await stored()).longRunning.keys()]).toEqual(['lr']);
  });

  it('closes an open question when the final update arrives first: its answer is then refused', async () => {
    const { seen, step } = setup([startExport, 'The export is ready.'], () => ({ never: 'run' }));
    await step(user('export orders'));
    const [request] = (await step(asking({ hint: 'Keep the locked rows?' }))).flatMap((e) => confirmationRequests(e));
    await step(longRunningResponse({ id: 'lr', name: 'startExport', response: { status: 'done' } }));

    const late = await step(confirmationResponse(request, { decision: 'approve' }));

    expect(late.map((e) => [e.errorCode, e.errorMessage?.endsWith('that call was already answered.')])).toEqual([['FUNCTION_RESPONSE_NOT_PENDING', true]]);
    expect(seen).toEqual([undefined]);
  });

  it('runs a hand-written BaseTool that ignores the answer again as on its first call: its result is the next update', async () => {
    class StartExport extends BaseTool {
      readonly name = 'startExport';
      readonly description = 'Starts exporting a table.';
      readonly parameters = { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] };
      override readonly isLongRunning = true;
      readonly started: string[] = [];
      run(args: Record<string, unknown>) {
        this.started.push(args.table as string);
        return { status: 'pending', ticket: `T-${this.started.length}` };
      }
    }
    const tool = new StartExport();
    const model = new ScriptedModel([startExport, 'A second export started.']);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'warehouse', agent: new LlmAgent({ name: 'exporter', model, tools: [tool] }), sessionService });
    await send(runner, user('export orders'));
    const [request] = (await send(runner, asking({ hint: 'Keep the locked rows?' }))).flatMap((e) => confirmationRequests(e));

    const answered = await send(runner, confirmationResponse(request, { decision: 'approve' }));

    expect(tool.started).toEqual(['orders', 'orders']);
    expect(answered[0].functionResponses()).toEqual([{ id: 'lr', name: 'startExport', response: { status: 'pending', ticket: 'T-2' }, willContinue: true }]);
    expect(answered[1].text()).toBe('A second export started.');
  });

  it('asks again when the tool, run with the answer, asks the person again: the call keeps waiting and the new question is answered like the first', async () => {
    const { seen, model, step, stored } = setup([startExport, 'The export goes on without the locked rows.'], (confirmation, ctx) => {
      if (confirmation.request === undefined) {
        ctx.requestConfirmation({ hint: 'Which rows?', payloadSchema: FORM });
        return { status: 'waiting for the person' }; // not the call's next update: the call waits
      }
      return { status: 'running', keep: (confirmation.payload as { keep: boolean }).keep };
    });
    await step(user('export orders'));
    const [first] = (await step(asking({ hint: 'Keep the 12 locked rows?' }))).flatMap((e) => confirmationRequests(e));

    const again = await step(confirmationResponse(first, { decision: 'approve' }));

    expect(again).toHaveLength(1);
    const [second] = confirmationRequests(again[0]);
    expect(second).toMatchObject({ originalFunctionCall: { id: 'lr', name: 'startExport' }, hint: 'Which rows?', payloadSchema: FORM, askedBy: 'tool' });
    expect(again[0].actions.requestedToolConfirmations!.lr.update).toEqual({ response: { status: 'blocked', rows: 12 }, willContinue: true });
    expect(model.callCount).toBe(1); // the placeholder went nowhere
    let pending = findPendingCalls(await stored());
    expect([...pending.confirmations.keys()]).toEqual([second.call.id]);
    expect([...pending.longRunning.keys()]).toEqual(['lr']);
    const runnerResponses = (await stored()).filter((e) => e.author !== 'user').flatMap((e) => e.functionResponses());
    expect(runnerResponses.map((r) => r.id)).toEqual(['lr']); // the initial result only
    const late = await step(confirmationResponse(first, { decision: 'approve' }));
    expect(late.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);

    const answered = await step(confirmationResponse(second, { decision: 'approve', payload: { keep: false } }));

    expect(seen.at(-1)).toMatchObject({ confirmed: true, decision: 'approve', payload: { keep: false }, update: { response: { status: 'blocked', rows: 12 }, willContinue: true } });
    expect(answered[0].functionResponses()).toEqual([{ id: 'lr', name: 'startExport', response: { status: 'running', keep: false }, willContinue: true }]);
    expect(answered[1].text()).toBe('The export goes on without the locked rows.');
    pending = findPendingCalls(await stored());
    expect([pending.confirmations.size, [...pending.longRunning.keys()]]).toEqual([0, ['lr']]);
  });

  it.each<[string, (confirmation: ToolConfirmation) => void, string]>([
    ['sets update.willContinue to something else than a boolean', (confirmation) => void ((confirmation.update as { willContinue: unknown }).willContinue = 'no'), 'set ctx.toolConfirmation.update.willContinue to "no"'],
    ['replaces update', (confirmation) => void (confirmation.update = { response: {}, willContinue: false }), 'replaced ctx.toolConfirmation.update'],
  ])('ends the call on UPDATE_CONTINUATION_INVALID when the tool %s', async (_label, misuse, said) => {
    const { step, stored } = setup([startExport, 'The export failed.'], (confirmation) => {
      misuse(confirmation);
      return { status: 'done' };
    });
    await step(user('export orders'));
    const [request] = (await step(asking({ hint: 'Keep the locked rows?' }))).flatMap((e) => confirmationRequests(e));

    const answered = await step(confirmationResponse(request, { decision: 'approve' }));

    const [response] = answered[0].functionResponses();
    expect(response).toMatchObject({ id: 'lr', isError: true, response: { error: { code: 'UPDATE_CONTINUATION_INVALID' } } });
    expect((response.response.error as { message: string }).message).toContain(said);
    expect(response.willContinue).toBeUndefined();
    expect(findPendingCalls(await stored()).longRunning.size).toBe(0);
  });

  it('a newer question on the call supersedes the open one: the older is refused as answered, the newer runs the tool once', async () => {
    const { seen, step, stored } = setup([startExport, 'The export goes on.'], (confirmation) => ({ status: 'running', hint: confirmation.hint }));
    await step(user('export orders'));
    const [older] = (await step(asking({ hint: 'Keep the locked rows?', payloadSchema: FORM }))).flatMap((e) => confirmationRequests(e));
    const [newer] = (await step(longRunningResponse({ id: 'lr', name: 'startExport', response: { status: 'blocked', rows: 30 }, willContinue: true, question: { hint: 'Keep all 30?' } }))).flatMap((e) => confirmationRequests(e));
    expect([...findPendingCalls(await stored()).confirmations.keys()]).toEqual([newer.call.id]);
    const count = (await stored()).length;

    const refused = await step(confirmationResponse(older, { decision: 'approve', payload: { keep: true } }));

    expect(refused.map((e) => [e.errorCode, e.errorMessage?.endsWith('that call was already answered.')])).toEqual([['FUNCTION_RESPONSE_NOT_PENDING', true]]);
    expect(await stored()).toHaveLength(count);
    const answered = await step(confirmationResponse(newer, { decision: 'approve' }));
    expect(answered.map((e) => e.errorCode ?? e.functionResponses().map((r) => r.response.error ?? r.id).join())).toEqual(['lr', '']); // no TOOL_INTERRUPTED for the older request
    expect(answered[0].functionResponses()).toEqual([{ id: 'lr', name: 'startExport', response: { status: 'running', hint: 'Keep all 30?' }, willContinue: true }]);
    expect(seen.slice(1)).toMatchObject([{ hint: 'Keep all 30?', update: { response: { status: 'blocked', rows: 30 } } }]);
  });

  it('ends the call on the error response when the tool fails with the answer', async () => {
    const { step, stored } = setup([startExport, 'The export failed.'], () => {
      throw new Error('the job is gone');
    });
    await step(user('export orders'));
    const [request] = (await step(asking({ hint: 'Keep the locked rows?' }))).flatMap((e) => confirmationRequests(e));

    const answered = await step(confirmationResponse(request, { decision: 'approve' }));

    const [response] = answered[0].functionResponses();
    expect(response).toMatchObject({ id: 'lr', isError: true, response: { error: { code: 'TOOL_EXECUTION_FAILED' } } });
    expect(response.willContinue).toBeUndefined();
    expect(answered[1].text()).toBe('The export failed.');
    expect(findPendingCalls(await stored()).longRunning.size).toBe(0);
  });
});
