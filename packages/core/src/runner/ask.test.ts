import { LlmAgent } from '../agents/llm-agent';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { TRANSFER_TO_AGENT } from '../builtins/transfer-to-agent';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { ProviderError } from '../errors/provider-errors';
import { functionTool } from '../function-tool/function-tool';
import type { JsonSchema } from '../model/json-schema';
import { startOAuth2TestServer } from '../testing/oauth2-test-server';
import { ScriptedModel, type ScriptedTurn } from '../testing/scripted-model';
import { user, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';
import { refundTool } from '../testing/conformance/conformance-tools';

const input = (text: string) => ({ userId: 'u1', sessionId: 's1', newMessage: user(text) });

function refundRunner(script: ScriptedTurn[]) {
  const refunds: number[] = [];
  const refund = refundTool(refunds);
  const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [refund] }) });
  return { runner, refunds };
}

describe('Runner.ask: one call for the common case', () => {
  it('resolves a plain answer to its text, with nothing pending and no error', async () => {
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'helper', model: new ScriptedModel(['Hello.']) }) });

    const result = await runner.ask(input('Hi'));

    expect(result.text).toBe('Hello.');
    expect(result.output).toBeUndefined();
    expect(result.pending).toEqual({ confirmations: [], credentials: [], longRunning: [] });
    expect(result.error).toBeUndefined();
    expect('error' in result).toBe(false);
    expect(result.events.map((event) => event.text())).toEqual(['Hello.']);
  });

  it('runs the tool calls and resolves to the text of the answer that follows them', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'getWeather', args: { city: 'Paris' } }] }, 'Sunny in Paris.']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'weather', model, tools: [weatherTool()] }) });

    const result = await runner.ask(input('Paris?'));

    expect(result.text).toBe('Sunny in Paris.');
    expect(result.events).toHaveLength(3); // the call, its response, the answer
    expect(result.events[1].functionResponses()[0].response).toEqual({ status: 'success', report: 'Sunny in Paris' });
  });

  it('resolves a pause to its confirmation request, without text; answering it with ask runs the call', async () => {
    const { runner, refunds } = refundRunner([{ calls: [{ id: 'call-1', name: 'refund', args: { amount: 250 } }] }, 'Refunded 250.']);

    const paused = await runner.ask(input('Refund 250'));

    expect(refunds).toEqual([]);
    expect(paused.text).toBe('');
    expect(paused.error).toBeUndefined();
    expect(paused.pending.credentials).toEqual([]);
    expect(paused.pending.longRunning).toEqual([]);
    expect(paused.pending.confirmations).toHaveLength(1);
    expect(paused.pending.confirmations[0].originalFunctionCall).toEqual({ id: 'call-1', name: 'refund', args: { amount: 250 } });

    const answered = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage: confirmationResponse(paused.pending.confirmations[0], { confirmed: true }) });

    expect(refunds).toEqual([250]);
    expect(answered.text).toBe('Refunded 250.');
    expect(answered.pending.confirmations).toEqual([]);
  });

  it('resolves a credential pause to its credential request', async () => {
    const server = await startOAuth2TestServer();
    try {
      const calendar = functionTool({
        name: 'listEvents',
        description: 'Lists calendar events.',
        auth: {
          scheme: 'oauth2AuthorizationCode',
          oauth2: { clientId: server.clientId, clientSecret: server.clientSecret, authorizationUrl: server.authorizationUrl, tokenUrl: server.tokenUrl, scopes: ['calendar.read'], redirectUri: 'https://app.example/cb' },
        },
        execute: () => ({ events: [] }),
      });
      const model = new ScriptedModel([{ calls: [{ id: 'call-1', name: 'listEvents', args: {} }] }]);
      const runner = new Runner({ appName: 'cal', agent: new LlmAgent({ name: 'assistant', model, tools: [calendar] }), credentialService: new InMemoryCredentialService() });

      const result = await runner.ask(input('My events?'));

      expect(result.text).toBe('');
      expect(result.pending.confirmations).toEqual([]);
      expect(result.pending.credentials).toHaveLength(1);
      expect(result.pending.credentials[0].originalFunctionCall.name).toBe('listEvents');
      expect(new URL(result.pending.credentials[0].authConfig.authUri!).origin).toBe(new URL(server.authorizationUrl).origin);
    } finally {
      await server.close();
    }
  });

  it('lists a long-running call the run started as pending', async () => {
    const start = functionTool({
      name: 'startExport',
      description: 'Starts an export.',
      parameters: { type: 'object', properties: {} },
      isLongRunning: true,
      execute: () => ({ status: 'started' }),
    });
    const model = new ScriptedModel([{ calls: [{ id: 'x1', name: 'startExport', args: {} }] }]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'exporter', model, tools: [start] }) });

    const result = await runner.ask(input('Export'));

    expect(result.pending.longRunning).toEqual([{ id: 'x1', name: 'startExport', agentName: 'exporter' }]);
    expect(result.pending.confirmations).toEqual([]);
  });

  it('resolves to the structured output, typed by the root agent\'s outputSchema', async () => {
    const schema: JsonSchema = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'] };
    const agent = new LlmAgent<{ city: string; celsius: number }>({ name: 'forecaster', model: new ScriptedModel(['{"city":"Paris","celsius":21}']), outputSchema: schema });
    const runner = new Runner({ appName: 'app', agent });

    const result = await runner.ask(input('Paris?'));

    const celsius: number | undefined = result.output?.celsius;
    // @ts-expect-error: output is typed by the agent's outputSchema, so a property it lacks does not compile
    expect(result.output?.fahrenheit).toBeUndefined();
    expect(celsius).toBe(21);
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(result.text).toBe('{"city":"Paris","celsius":21}');
  });

  it('leaves output undefined when another agent answered; that agent\'s outputOf reads it from events', async () => {
    const schema: JsonSchema = { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] };
    const forecaster = new LlmAgent<{ celsius: number }>({ name: 'forecaster', model: new ScriptedModel(['{"celsius":21}']), outputSchema: schema });
    const router = new LlmAgent({ name: 'router', model: new ScriptedModel([{ calls: [{ name: TRANSFER_TO_AGENT, args: { agentName: 'forecaster' } }] }]), subAgents: [forecaster] });
    const runner = new Runner({ appName: 'app', agent: router });

    const result = await runner.ask(input('Paris?'));

    expect(result.output).toBeUndefined();
    expect(forecaster.outputOf(result.events.at(-1)!)).toEqual({ celsius: 21 });
  });

  it('resolves a model failure to error, without rejecting', async () => {
    const failure = new ProviderError('PROVIDER_CONNECTION_FAILED', 'connect ECONNREFUSED 127.0.0.1:9', { provider: 'test' });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'helper', model: new ScriptedModel([failure]) }) });

    const result = await runner.ask(input('Hi'));

    expect(result.error).toEqual({ code: 'PROVIDER_CONNECTION_FAILED', message: 'connect ECONNREFUSED 127.0.0.1:9' });
    expect(result.text).toBe('');
    expect(result.output).toBeUndefined();
  });

  it('passes messageId on: the same message sent again runs nothing and resolves to the same answer', async () => {
    const model = new ScriptedModel(['First answer.', 'Second answer.']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'helper', model }) });

    const first = await runner.ask({ ...input('Hi'), messageId: 'm-1' });
    const again = await runner.ask({ ...input('Hi'), messageId: 'm-1' });

    expect(model.callCount).toBe(1);
    expect(again.text).toBe('First answer.');
    expect(again.events.map((event) => event.id)).toEqual(first.events.map((event) => event.id));
  });
});
