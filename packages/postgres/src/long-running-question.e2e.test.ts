import { InMemorySessionService, LlmAgent, Runner, confirmationRequests, confirmationResponse, type Content, type SessionService, functionTool, longRunningResponse } from '@toolsmith/core';
import { ScriptedModel, collect } from '@toolsmith/core/testing';
import { PostgresSessionService } from './postgres-session-service';

// A long-running tool that asks the person a question with a payload schema before it starts
// (docs/long-running.md, "Asking the person"): the run pauses, a bad answer is refused with its problems
// and stores nothing, the answer reaches the tool, its initial result comes after it, and the final
// update finishes the call. In memory and on PGlite, each step on a new Runner.

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const FORM = { type: 'object', properties: { format: { enum: ['csv', 'json'] } }, required: ['format'], additionalProperties: false };

describe.each<[string, () => SessionService & { close?(): Promise<void> }]>([
  ['in memory', () => new InMemorySessionService()],
  ['PGlite', () => PostgresSessionService.embedded()],
])('a long-running tool asks the person a question (%s)', (_store, open) => {
  jest.setTimeout(60_000); // a bound, not a wait: PGlite (WASM) starts slowly on a busy machine

  it('pauses on the question, refuses a bad answer with its problems, gives the answer to the tool, then takes the updates', async () => {
    const sessionService = open();
    const started: string[] = [];
    const startExport = functionTool<{ table: string }>({
      name: 'startExport',
      description: 'Starts exporting a table.',
      parameters: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
      isLongRunning: true,
      execute: (args, ctx) => {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: `Export ${args.table} as?`, payloadSchema: FORM });
          return { status: 'waiting for the person' };
        }
        const { format } = ctx.toolConfirmation.payload as { format: string };
        started.push(format);
        return { status: 'pending', ticket: `T-${format}` };
      },
    });
    const model = new ScriptedModel([{ calls: [{ id: 'call_9', name: 'startExport', args: { table: 'orders' } }] }, 'The export is done.']);
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

      const done = await send(longRunningResponse({ id: 'call_9', name: 'startExport', response: { status: 'done', url: '/exports/T-csv.csv' } }));
      expect(done.at(-1)!.text()).toBe('The export is done.');
      expect(started).toEqual(['csv']); // the tool ran once with the answer; updates do not run it
    } finally {
      await sessionService.close?.();
    }
  });
});
