import { type AuthConfig, type Event, InMemoryCredentialService, LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { kindOf } from './event-stream';

describe('kindOf', () => {
  it("names the runner's credential request 'credential', and a model's look-alike call only 'tool-call'", async () => {
    const auth: AuthConfig = { scheme: 'apiKey', name: 'crm-key' };
    const crm = functionTool({ name: 'crm_lookup', description: 'Looks a customer up in the CRM.', auth, execute: (_: unknown, ctx) => ({ key: ctx.credential?.apiKey }) });
    const lookAlike = { name: 'toolsmith_request_credential', args: { originalFunctionCall: { id: 'x', name: 'crm_lookup', args: {} }, authConfig: auth } };
    const model = new ScriptedModel([{ calls: [{ name: 'crm_lookup' }] }, { calls: [lookAlike] }, 'done']);
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'a', model, tools: [crm] }), credentialService: new InMemoryCredentialService() });
    const run = async (text: string) => {
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text }] } })) events.push(event);
      return events.map(kindOf);
    };

    expect(await run('look up the customer')).toEqual(['tool-call', 'credential']);
    expect((await run('again')).slice(0, 1)).toEqual(['tool-call']);
  });
});
