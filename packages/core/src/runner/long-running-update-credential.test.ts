import { LlmAgent } from '../agents/llm-agent';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { credentialRequests } from '../confirmation/credential-requests';
import { credentialResponse } from '../confirmation/credential-response';
import { longRunningResponse } from '../confirmation/long-running-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import { functionTool } from '../function-tool/function-tool';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { ToolConfirmation } from '../state/event-actions';
import { ScriptedModel } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

// A long-running tool run again with the answer to an update's question asks for a credential
// (docs/long-running.md): the request carries the update, and its answer runs the tool again with it.

const FORM = { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'], additionalProperties: false };
const KEY = { scheme: 'apiKey' as const, name: 'export-key' };
const UPDATE = { response: { status: 'blocked', rows: 12 }, willContinue: true };

async function askedForKey() {
  const seen: Array<{ confirmation?: ToolConfirmation }> = [];
  const tool = functionTool<{ table: string }>({
    name: 'startExport',
    description: 'Starts exporting a table.',
    parameters: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
    isLongRunning: true,
    execute: async (_args, ctx) => {
      seen.push({ confirmation: ctx.toolConfirmation && structuredClone(ctx.toolConfirmation) });
      if (!ctx.toolConfirmation?.update) return { status: 'pending' };
      const credential = await ctx.getAuthResponse(KEY);
      if (!credential) return ctx.requestCredential(KEY);
      return { status: 'running', resumedWith: credential.apiKey };
    },
  });
  const model = new ScriptedModel([{ calls: [{ id: 'lr', name: 'startExport', args: { table: 'orders' } }] }, 'resumed']);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'warehouse', agent: new LlmAgent({ name: 'exporter', model, tools: [tool] }), sessionService, credentialService: new InMemoryCredentialService() });
  await send(runner, user('export orders'));
  const [question] = (await send(runner, longRunningResponse({ id: 'lr', name: 'startExport', response: UPDATE.response, willContinue: true, question: { hint: 'Keep?', payloadSchema: FORM } }))).flatMap((event) => confirmationRequests(event));
  const asked = await send(runner, confirmationResponse(question, { decision: 'approve', payload: { keep: true } }));
  const events = async () => (await sessionService.getSession({ appName: 'warehouse', userId: 'u1', sessionId: 's1' }))!.events;
  return { runner, seen, asked, events };
}

describe('a credential asked for by a long-running tool run with an update question\'s answer', () => {
  it('carries the update; its answer runs the tool again with the update and the key, and the result is the call\'s next update', async () => {
    const { runner, seen, asked, events } = await askedForKey();
    const [request] = asked.flatMap((event) => credentialRequests(event));
    expect(asked.at(-1)!.actions.requestedToolConfirmations).toEqual({ lr: { confirmed: false, auth: { authConfig: KEY }, update: UPDATE } });
    expect(findPendingCalls(await events()).confirmations.get(request.call.id)!.update).toEqual(UPDATE);

    const answered = await send(runner, credentialResponse(request, { credential: { apiKey: 'KEY-typed-1234' } }));

    expect(seen.at(-1)!.confirmation).toEqual({ confirmed: true, update: UPDATE });
    const [response] = answered.flatMap((event) => event.functionResponses());
    expect(response).toMatchObject({ id: 'lr', response: { status: 'running', resumedWith: 'KEY-typed-1234' }, willContinue: true });
    expect(answered.at(-1)!.text()).toBe('resumed');
    expect(findPendingCalls(await events()).longRunning.has('lr')).toBe(true);
  });

  it('cancelled: the call ends with TOOL_CALL_REJECTED and the tool does not run', async () => {
    const { runner, seen, asked, events } = await askedForKey();
    const [request] = asked.flatMap((event) => credentialRequests(event));
    const runs = seen.length;

    const answered = await send(runner, credentialResponse(request, { cancelled: true }));

    expect(seen.length).toBe(runs);
    const [response] = answered.flatMap((event) => event.functionResponses());
    expect(response.id).toBe('lr');
    expect((response.response as { error?: { code: string } }).error?.code).toBe('TOOL_CALL_REJECTED');
    expect(response.willContinue).toBeUndefined();
    expect(findPendingCalls(await events()).longRunning.has('lr')).toBe(false);
  });
});
