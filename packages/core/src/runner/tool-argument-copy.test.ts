import { argsFromJsonValue } from '../adapter-kit/function-call-args';
import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner } from './runner';

const ARGS = { city: 'Paris', tags: ['a'], where: { lat: 48.8 } };

/** Changes everything it can reach in `args`: a value, a nested array and object, a new key. */
function mutate(args: Record<string, unknown>): void {
  args.city = 'changed';
  (args.tags as string[]).push('b');
  (args.where as Record<string, unknown>).lat = 0;
  args.extra = true;
}

function setup(callbacks: { beforeTool?: (input: { args: Record<string, unknown> }) => undefined } = {}, tool = new FnTool('weather', (args) => ({ report: `Sunny in ${String(args.city)}` }))) {
  const sessionService = new InMemorySessionService();
  const model = new ScriptedModel([{ calls: [{ id: 'call-1', name: 'weather', args: { city: 'Paris', tags: ['a'], where: { lat: 48.8 } } }] }, 'ok']);
  const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [tool], callbacks }), sessionService });
  const stored = async () => (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!.events;
  return { runner, model, stored };
}

const callArgs = (events: readonly Event[]) => events.flatMap((e) => e.functionCalls()).map((call) => call.args);

describe("the model's call as stored and yielded is the call it made: a tool or beforeTool gets a copy of the arguments", () => {
  it('a tool that changes its args object changes neither the stored call, the yielded event nor what the model reads next', async () => {
    const ran: unknown[] = [];
    const { runner, model, stored } = setup({}, new FnTool('weather', (args) => (mutate(args), ran.push(args), { ok: true })));
    const events = await send(runner, user('weather?'));
    expect(ran).toHaveLength(1);
    expect(callArgs(events)).toEqual([ARGS]);
    expect(callArgs(await stored())).toEqual([ARGS]);
    expect(model.requests[1].contents[1].parts[0].functionCall!.args).toEqual(ARGS);
  });

  it('a beforeTool callback that changes args changes neither the stored call nor the yielded event', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const { runner, stored } = setup(
      { beforeTool: ({ args }) => (mutate(args), undefined) },
      new FnTool('weather', (args) => (seen.push(args), { ok: true }), { parameters: { type: 'object', additionalProperties: true } }),
    );
    const events = await send(runner, user('weather?'));
    expect(callArgs(events)).toEqual([ARGS]);
    expect(callArgs(await stored())).toEqual([ARGS]);
    // The tool runs with what beforeTool made of the arguments, as before.
    expect(seen).toEqual([{ city: 'changed', tags: ['a', 'b'], where: { lat: 0 }, extra: true }]);
  });
});

describe('arguments given as an object hold only numbers JSON has', () => {
  it('refuses NaN, Infinity and -Infinity, at the top or nested, with MALFORMED_ARGUMENTS; the tool never runs', async () => {
    const ran: unknown[] = [];
    const tool = new FnTool('t', (args) => (ran.push(args), { ok: true }), { parameters: { type: 'object', properties: { n: { type: 'number' }, o: {} } } });
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 't', args: { n: NaN } }, { id: 'c2', name: 't', args: { n: Infinity } }, { id: 'c3', name: 't', args: { o: { deep: [-Infinity] } } }] }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService: new InMemorySessionService() });
    const events = await send(runner, user('go'));
    expect(ran).toEqual([]);
    const responses = events.flatMap((e) => e.functionResponses());
    expect(responses.map((r) => [r.id, r.isError, (r.response.error as { code: string }).code])).toEqual([
      ['c1', true, 'MALFORMED_ARGUMENTS'],
      ['c2', true, 'MALFORMED_ARGUMENTS'],
      ['c3', true, 'MALFORMED_ARGUMENTS'],
    ]);
    expect(JSON.stringify(responses[0].response)).toContain('plain JSON');
  });

  it('refuses JSON text whose number JSON.parse makes Infinity (1e999), short or long, fenced or with a trailing comma; the tool never runs', async () => {
    const ran: unknown[] = [];
    const tool = new FnTool('t', (args) => (ran.push(args), { ok: true }), { parameters: { type: 'object', properties: { n: { type: 'number' }, note: { type: 'string' } } } });
    const texts = ['{"n":1e999}', '{"n":-1E+999}', '```json\n{"n":1e999}\n```', '{"n":1e999,}', `{"n":1e999,"note":"${'x'.repeat(200)}"}`];
    const calls = texts.map((args, index) => ({ id: `c${index}`, name: 't', args: args as unknown as Record<string, unknown> }));
    const model = new ScriptedModel([{ calls }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService: new InMemorySessionService() });
    const events = await send(runner, user('go'));
    expect(ran).toEqual([]);
    const responses = events.flatMap((e) => e.functionResponses());
    expect(responses.map((r) => (r.response.error as { code: string }).code)).toEqual(texts.map(() => 'MALFORMED_ARGUMENTS'));
  });

  it('refuses JSON text with a number of 309 digits or more (Infinity to JSON.parse, no exponent) also when maxDepth is large enough for the short-text fast path to take text that long', async () => {
    const ran: unknown[] = [];
    const tool = new FnTool('t', (args) => (ran.push(args), { ok: true }), { parameters: { type: 'object', properties: { n: { type: 'number' } } } });
    const texts = [`{"n":1${'0'.repeat(309)}}`, `{"n":-1${'0'.repeat(309)}.5}`];
    const calls = texts.map((args, index) => ({ id: `c${index}`, name: 't', args: args as unknown as Record<string, unknown> }));
    const model = new ScriptedModel([{ calls }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService: new InMemorySessionService(), argumentLimits: { maxChars: 1_000_000, maxDepth: 200 } });
    const events = await send(runner, user('go'));
    expect(ran).toEqual([]);
    const responses = events.flatMap((e) => e.functionResponses());
    expect(responses.map((r) => (r.response.error as { code: string }).code)).toEqual(texts.map(() => 'MALFORMED_ARGUMENTS'));
  });

  it('gives the tool -0 as 0, as JSON has it', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const tool = new FnTool('t', (args) => (ran.push(args), { ok: true }));
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 't', args: { n: -0, list: [-0] } }] }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService: new InMemorySessionService() });
    await send(runner, user('go'));
    expect(ran).toHaveLength(1);
    expect(Object.is(ran[0].n, 0)).toBe(true);
    expect(Object.is((ran[0].list as number[])[0], 0)).toBe(true);
  });
});

describe('arguments an adapter hands on that throw when read', () => {
  it('refuses a call whose args (mapped by argsFromJsonValue) have a throwing getter or are a revoked Proxy with MALFORMED_ARGUMENTS, alone: the other call runs', async () => {
    const ran: unknown[] = [];
    const tool = new FnTool('t', (args) => (ran.push(args), { ok: true }));
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const mapped = [
      argsFromJsonValue({ get n(): number { throw new Error('boom'); } }),
      argsFromJsonValue({ nested: revocable.proxy }),
      argsFromJsonValue(revocable.proxy),
      argsFromJsonValue({ n: 1 }),
    ];
    const calls = mapped.map((args, index) => ({ id: `c${index}`, name: 't', args }));
    const model = new ScriptedModel([{ calls }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService: new InMemorySessionService() });
    const events = await send(runner, user('go'));
    expect(events.filter((e) => e.errorCode)).toEqual([]);
    expect(ran).toEqual([{ n: 1 }]);
    const responses = events.flatMap((e) => e.functionResponses());
    expect(responses.map((r) => [r.id, r.isError, (r.response.error as { code: string } | undefined)?.code])).toEqual([
      ['c0', true, 'MALFORMED_ARGUMENTS'],
      ['c1', true, 'MALFORMED_ARGUMENTS'],
      ['c2', true, 'MALFORMED_ARGUMENTS'],
      ['c3', undefined, undefined],
    ]);
  });
});
