import { LlmAgent } from '../agents/llm-agent';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { JsonSchema } from '../model/json-schema';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** A model whose provider fails with a typed error carrying `details`. */
class FailingModel implements Model {
  readonly provider = 'acme';
  readonly modelName = 'acme-1';
  constructor(
    private readonly details: unknown,
    private readonly message = 'Acme failed.',
  ) {}
  async *generate(_request: LlmRequest): AsyncGenerator<LlmResponse> {
    throw new ToolsmithError('SERVER_ERROR', this.message, { details: this.details });
  }
}

function setup(model: Model, outputSchema?: JsonSchema) {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'w', sessionService, agent: new LlmAgent({ name: 'x', model, ...(outputSchema ? { outputSchema, outputRetries: 0 } : {}) }) });
  const stored = async () => (await sessionService.getSession({ appName: 'w', userId: 'u1', sessionId: 's1' }))!.events;
  return { runner, stored };
}

describe('an error event carries the typed error\'s details', () => {
  it('as plain JSON, secret-named properties and secret-looking text redacted, in the yielded and the stored event and ask().error', async () => {
    const details = { status: 503, apiKey: 'sk-live-abcdefgh12345678', request: { headers: { authorization: 'Bearer abcdefgh12345678' } }, note: 'sent with sk-proj-abcdefgh12345678', when: new Date(0) };
    const { runner, stored } = setup(new FailingModel(details));
    const result = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage: user('Hi') });
    const expected = { status: 503, apiKey: '[redacted]', request: { headers: { authorization: '[redacted]' } }, note: 'sent with [redacted]', when: '1970-01-01T00:00:00.000Z' };
    expect(result.error).toEqual({ code: 'SERVER_ERROR', message: 'Acme failed.', details: expected });
    expect(result.events.at(-1)!.errorDetails).toEqual(expected);
    expect((await stored()).at(-1)!.toJSON()).toMatchObject({ errorCode: 'SERVER_ERROR', errorDetails: expected });
    expect(JSON.stringify(await stored())).not.toContain('abcdefgh12345678');
    // The error keeps its own details: only the event's copy is redacted.
    expect(details.apiKey).toBe('sk-live-abcdefgh12345678');
  });

  it('with secret-looking text in its message (an API key a provider echoed) redacted, in the yielded and the stored event and ask().error', async () => {
    const { runner, stored } = setup(new FailingModel(undefined, 'invalid x-api-key sk-ant-api03-REALLOOKINGKEYabcdefghij'));
    const result = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage: user('Hi') });
    expect(result.error).toEqual({ code: 'SERVER_ERROR', message: 'invalid x-api-key [redacted]' });
    expect(result.events.at(-1)!.errorMessage).toBe('invalid x-api-key [redacted]');
    expect(JSON.stringify(await stored())).not.toContain('REALLOOKINGKEY');
  });

  it('the problems of an answer that breaks the outputSchema', async () => {
    const schema: JsonSchema = { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] };
    const { runner } = setup(new ScriptedModel(['{"celsius":"warm"}']), schema);
    const { error } = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage: user('Weather?') });
    expect(error).toMatchObject({ code: 'OUTPUT_INVALID', details: { problems: [expect.objectContaining({ path: '/celsius' })] } });
  });

  it('as the copy that was checked: a nested getter is read once', async () => {
    let reads = 0;
    const details = {
      limits: {
        get max() {
          reads++;
          return reads === 1 ? 3 : new Map([['max', 3]]);
        },
      },
    };
    const { runner, stored } = setup(new FailingModel(details));
    const { error } = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage: user('Hi') });
    expect(error).toEqual({ code: 'SERVER_ERROR', message: 'Acme failed.', details: { limits: { max: 3 } } });
    expect((await stored()).at(-1)!.errorDetails).toEqual({ limits: { max: 3 } });
    expect(reads).toBe(1);
  });

  it('no errorDetails for an error without details, nor for details that are not JSON (the code and message stay)', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    // A Map or a Set (which JSON.stringify would make {}) and NaN (null) are left out as a tool error's details are.
    for (const details of [undefined, cyclic, { big: 1n }, { byId: new Map([[1, 2]]) }, { tags: new Set(['a']) }, { ratio: NaN }]) {
      const { runner, stored } = setup(new FailingModel(details));
      const { error, events } = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage: user('Hi') });
      expect(error).toEqual({ code: 'SERVER_ERROR', message: 'Acme failed.' });
      expect('errorDetails' in events.at(-1)!.toJSON()).toBe(false);
      expect((await stored()).at(-1)!.errorCode).toBe('SERVER_ERROR');
    }
  });
});
