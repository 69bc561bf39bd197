import { LlmAgent } from '../agents/llm-agent';
import type { LlmResponse } from '../model/llm-response';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** `levels` nested objects (`{ a: { a: 1 } }` is 2), as arguments count theirs. */
const nested = (levels: number): unknown => (levels === 0 ? 1 : { a: nested(levels - 1) });

// docs/runner.md: a part's providerData and other members nested no deeper than argumentLimits.maxDepth
// levels, counted as arguments are (their own object is level 1), wherever the member is.
describe('a model response member of no known field, under maxDepth 4', () => {
  const places: Array<[string, (member: unknown) => unknown]> = [
    ["a content's member", (member) => ({ content: { role: 'model', parts: [{ text: 'hi' }], extra: member } })],
    ["a part's providerData", (member) => ({ content: { role: 'model', parts: [{ text: 'hi', providerData: member }] } })],
    ["a call's member", (member) => ({ content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'nothing', args: {}, extra: member } }] } })],
  ];

  async function firstEvent(response: unknown) {
    const model = new ScriptedModel([response as LlmResponse, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model }), sessionService: new InMemorySessionService(), argumentLimits: { maxChars: 1_000_000, maxDepth: 4 } });
    return (await send(runner, user('go')))[0];
  }

  it.each(places)('%s: 4 levels are stored, 5 refuse the response', async (_, response) => {
    const four = await firstEvent(response(nested(4)));
    expect(four.errorCode).toBeUndefined();
    expect(JSON.stringify(four.content)).toContain(JSON.stringify(nested(4)));
    const five = await firstEvent(response(nested(5)));
    expect([five.errorCode, five.errorMessage]).toEqual(['INVALID_MODEL_RESPONSE', expect.stringContaining('nested deeper than 4 levels')]);
  });
});
