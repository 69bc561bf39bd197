import { LlmAgent } from '../agents/llm-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import type { JsonSchema } from '../model/json-schema';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { ToolConfirmation } from '../state/event-actions';
import { ScriptedModel } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner } from './runner';

const FORM: JsonSchema = {
  type: 'object',
  properties: { size: { type: 'string', enum: ['small', 'large'], default: 'small' }, count: { type: 'integer', minimum: 1 } },
  required: ['size'],
  additionalProperties: false,
};

/** A tool that asks for a form (ctx.requestConfirmation with a payloadSchema) and records what it ran with. */
function setup(editable?: boolean) {
  const runs: ToolConfirmation[] = [];
  const order = new FnTool('order', (_args, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: 'Which size?', payload: { asked: 'size' }, payloadSchema: FORM, ...(editable === undefined ? {} : { editable }) });
      return {};
    }
    runs.push(ctx.toolConfirmation);
    return { ordered: ctx.toolConfirmation.payload };
  });
  const runner = new Runner({
    appName: 'shop',
    agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([{ calls: [{ id: 'c1', name: 'order', args: {} }] }, 'Ordered.']), tools: [order] }),
    sessionService: new InMemorySessionService(),
  });
  return { runs, runner };
}

describe('confirmation with a form (payloadSchema)', () => {
  it('shows the form with the request, refuses an approval whose payload does not fill it in, and runs with the filled-in form', async () => {
    const { runs, runner } = setup();
    const [request] = (await send(runner, user('order'))).flatMap((event) => confirmationRequests(event));
    expect(request).toMatchObject({ hint: 'Which size?', payload: { asked: 'size' }, payloadSchema: FORM });

    const wrong = await send(runner, confirmationResponse(request, { decision: 'approve', payload: { size: 'huge', count: 0 } }));
    expect(wrong.map((event) => event.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
    expect(wrong[0].errorMessage).toBe(
      `The answer to confirmation request "${request.call.id}" was refused: its "payload" does not fill in the request's form ` +
        '(size: got "huge", expected one of "small" | "large"; count: got 0, expected >= 1).',
    );
    const missing = await send(runner, confirmationResponse(request, { decision: 'approve' }));
    expect(missing[0].errorMessage).toContain('the request is a form: its "payload" must be the filled-in form');
    expect(runs).toEqual([]);

    const done = await send(runner, confirmationResponse(request, { decision: 'approve', payload: { size: 'large', count: 2 } }));
    expect(done.flatMap((event) => event.functionResponses()).find((response) => response.id === 'c1')?.response).toEqual({ ordered: { size: 'large', count: 2 } });
    // The rerun sees what was asked beside what was answered.
    expect(runs).toEqual([
      { confirmed: true, hint: 'Which size?', payload: { size: 'large', count: 2 }, request: { hint: 'Which size?', payload: { asked: 'size' }, payloadSchema: FORM } },
    ]);
  });

  it('a rejection needs no form', async () => {
    const { runs, runner } = setup();
    const [request] = (await send(runner, user('order'))).flatMap((event) => confirmationRequests(event));
    const rejected = await send(runner, confirmationResponse(request, { decision: 'reject' }));
    expect(rejected.flatMap((event) => event.functionResponses())[0]).toMatchObject({ isError: true, response: { error: { code: 'TOOL_CALL_REJECTED' } } });
    expect(runs).toEqual([]);
  });

  it('a request that is not editable (editable: false) says so and refuses an edit up front, storing nothing; the request stays open for another decision', async () => {
    const { runs, runner } = setup(false);
    const [request] = (await send(runner, user('order'))).flatMap((event) => confirmationRequests(event));
    expect(request).toMatchObject({ hint: 'Which size?', payloadSchema: FORM, editable: false });
    expect(request.call.args).toMatchObject({ toolConfirmation: { editable: false } });

    const edited = await send(runner, confirmationResponse(request, { decision: 'edit', args: { note: 'other' }, payload: { size: 'large' } }));
    expect(edited.map((event) => event.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
    expect(edited[0].errorMessage).toContain('this request cannot be answered with "edit" ("editable": false)');
    expect(runs).toEqual([]);

    const done = await send(runner, confirmationResponse(request, { decision: 'approve', payload: { size: 'small' } }));
    expect(done.flatMap((event) => event.functionResponses()).find((response) => response.id === 'c1')?.response).toEqual({ ordered: { size: 'small' } });
    expect(runs).toHaveLength(1);
  });

  it('a request without editable takes an edit, as before', async () => {
    const { runs, runner } = setup();
    const [request] = (await send(runner, user('order'))).flatMap((event) => confirmationRequests(event));
    expect(request.editable).toBeUndefined();
    const edited = await send(runner, confirmationResponse(request, { decision: 'edit', args: {}, payload: { size: 'large' } }));
    expect(edited.filter((event) => event.errorCode !== undefined)).toEqual([]);
    expect(runs).toHaveLength(1);
  });
});
