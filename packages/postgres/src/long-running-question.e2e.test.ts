import { InMemorySessionService, LlmAgent, Runner, confirmationRequests, confirmationResponse, type Content, type SessionService, functionTool, longRunningResponse } from '@toolsmith/core';
import { ScriptedModel, collect } from '@toolsmith/core/testing';
import { PostgresSessionService } from './postgres-session-service';

// A long-running tool that asks the person a question with a payload schema before it starts
// (docs/long-running.md, "Asking the person"): the run pauses, a bad answer is refused with its problems
// and stores nothing, the answer reaches the tool, its initial result comes after it, and the final
// update finishes the call. Then an update asks the person a question (docs/long-running.md, "Asking the
// person in an update"): a bad answer stores nothing, the answer from a new Runner runs the tool again with
// its payload, its result is the call's next update, and a second answer is refused. In memory and on
// PGlite, each step on a new Runner.

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const FORM = { type: 'object', properties: { format: { enum: ['csv', 'json'] } }, required: ['format'], additionalProperties: false };
const KEEP = { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'], additionalProperties: false };

describe.each<[string, () => SessionService & { close?(): Promise<void> }]>([
  ['in memory', () => new InMemorySessionService()],
  ['PGlite', () => PostgresSessionService.embedded()],
])('a long-running tool asks the person a question (%s)', (_store, open) => {
  jest.setTimeout(60_000); // a bound, not a wait: PGlite (WASM) starts slowly on a busy machine

  it('pauses on the question, refuses a bad answer with its problems, gives the answer to the tool, then takes the updates, and answers an update\'s question', async () => {
    const sessionService = open();
    const started: string[] = [];
    const resumed: unknown[] = [];
    const startExport = functionTool<{ table: string }>({
      name: 'startExport',
      description: 'Starts exporting a table.',
      parameters: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
      isLongRunning: true,
      execute: (args, ctx) => {
        if (ctx.toolConfirmation?.update) {
          resumed.push({ payload: ctx.toolConfirmation.payload, update: ctx.toolConfirmation.update });
          return { status: 'running', keptLocked: (ctx.toolConfirmation.payload as { keep: boolean }).keep };
        }
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: `Export ${args.table} as?`, payloadSchema: FORM });
          return { status: 'waiting for the person' };
        }
        const { format } = ctx.toolConfirmation.payload as { format: string };
        started.push(format);
        return { status: 'pending', ticket: `T-${format}` };
      },
    });
    const model = new ScriptedModel([{ calls: [{ id: 'call_9', name: 'startExport', args: { table: 'orders' } }] }, 'I kept the locked rows.', 'The export is done.']);
    const runner = () => new Runner({ appName: 'exports', agent: new LlmAgent({ name: 'exporter', model, tools: [startExport] }), sessionService });
    const send = (newMessage: Content) => collect(runner().run({ userId: 'u1', sessionId: 's1', newMessage }));
    const stored = async () => (await sessionService.getSession({ appName: 'exports', userId: 'u1', sessionId: 's1' }))!.events.length;
    try {
      const [request] = (await send(user('export orders'))).flatMap((e) => confirmationRequests(e));
      expect(request).toMatchObject({ originalFunctionCall: { id: 'call_9', name: 'startExport' }, hint: 'Export orders as?', payloadSchema: FORM, askedBy: 'tool' });
      expect(request.call.args).toEqual({
        originalFunctionCall: { id: 'call_9', name: 'startExport', args: { table: 'orders' } },
        toolConfirmation: { hint: 'Export orders as?', payloadSchema: FORM },
      });
      expect(started).toEqual([]);
      const before = await stored();

      const refused = await send(confirmationResponse(request, { decision: 'approve', payload: { format: 'xml' } }));
      expect(refused.map((e) => e.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
      expect(refused[0].errorMessage).toContain('its "payload" does not fill in the request\'s form');
      expect(refused[0].errorMessage).toContain('format');
      expect(await stored()).toBe(before);
      expect(started).toEqual([]);

      const answered = await send(confirmationResponse(request, { decision: 'approve', payload: { format: 'csv' } }));
      expect(started).toEqual(['csv']);
      const initial = answered.find((e) => e.functionResponses().length > 0)!;
      expect(initial.functionResponses()).toEqual([{ id: 'call_9', name: 'startExport', response: { status: 'pending', ticket: 'T-csv' } }]);
      expect(initial.longRunningToolIds).toEqual(['call_9']);
      expect(answered.at(-1)).toBe(initial); // as for any long-running call: the invocation ends on its initial result
      expect(model.requests).toHaveLength(1);

      // An update asks the person a question: stored as sent, then the request; no model call.
      const blocked = { status: 'blocked', rows: 12 };
      const asked = await send(longRunningResponse({ id: 'call_9', name: 'startExport', response: blocked, willContinue: true, question: { hint: 'Keep the 12 locked rows?', payloadSchema: KEEP } }));
      expect(asked).toHaveLength(1);
      const [question] = confirmationRequests(asked[0]);
      expect(question).toMatchObject({ originalFunctionCall: { id: 'call_9', name: 'startExport' }, hint: 'Keep the 12 locked rows?', payloadSchema: KEEP, askedBy: 'tool' });
      expect(asked[0].actions.requestedToolConfirmations).toEqual({
        call_9: { hint: 'Keep the 12 locked rows?', payloadSchema: KEEP, confirmed: false, askedBy: 'tool', update: { response: blocked, willContinue: true } },
      });
      expect(model.requests).toHaveLength(1);
      const beforeQuestion = await stored();

      const refusedAnswer = await send(confirmationResponse(question, { decision: 'approve', payload: { keep: 'yes' } }));
      expect(refusedAnswer.map((e) => e.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
      expect(refusedAnswer[0].errorMessage).toContain('its "payload" does not fill in the request\'s form');
      expect(await stored()).toBe(beforeQuestion);
      expect(resumed).toEqual([]);

      const kept = await send(confirmationResponse(question, { decision: 'approve', payload: { keep: true } }));
      expect(resumed).toEqual([{ payload: { keep: true }, update: { response: blocked, willContinue: true } }]);
      expect(kept.map((e) => e.author)).toEqual(['exporter', 'exporter']);
      expect(kept[0].functionResponses()).toEqual([{ id: 'call_9', name: 'startExport', response: { status: 'running', keptLocked: true }, willContinue: true }]);
      expect(kept[1].text()).toBe('I kept the locked rows.');
      // Stored: the answer, the tool's result as the call's next update, the model's reply.
      const events = (await sessionService.getSession({ appName: 'exports', userId: 'u1', sessionId: 's1' }))!.events;
      expect(events).toHaveLength(beforeQuestion + 3);
      expect(events.at(-2)!.content!.parts[0].functionResponse).toEqual({ id: 'call_9', name: 'startExport', response: { status: 'running', keptLocked: true }, willContinue: true });

      const secondAnswer = await send(confirmationResponse(question, { decision: 'approve', payload: { keep: false } }));
      expect(secondAnswer.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
      expect(await stored()).toBe(beforeQuestion + 3);
      expect(resumed).toHaveLength(1);

      const done = await send(longRunningResponse({ id: 'call_9', name: 'startExport', response: { status: 'done', url: '/exports/T-csv.csv' } }));
      expect(done.at(-1)!.text()).toBe('The export is done.');
      expect(started).toEqual(['csv']); // the tool ran once with the first answer and once with the update's; updates do not run it
    } finally {
      await sessionService.close?.();
    }
  });
});
