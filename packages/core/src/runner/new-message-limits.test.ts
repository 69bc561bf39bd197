import { LlmAgent } from '../agents/llm-agent';
import type { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { Runner } from './runner';
import { checkNewMessage } from './check-new-message';

/** `{ a: { a: … } }`, `levels` objects deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

const deepAnswer = (levels: number): Content => ({ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'x', response: nested(levels) } }] });

describe('the runner applies the argument limits to every new user message', () => {
  const setup = (limits?: { maxChars: number; maxDepth: number }) => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['ok', 'ok']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model }), sessionService, ...(limits ? { argumentLimits: limits } : {}) });
    const session = async () => (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
    return { runner, model, session };
  };

  it('refuses a part 50,000 levels deep with INVALID_MESSAGE; nothing is stored and the session stays readable', async () => {
    const { runner, model, session } = setup();
    const events = await send(runner, deepAnswer(50_000));
    expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining('part 0 is nested deeper than 64 levels')]]);
    expect(await session()).toBeUndefined(); // nothing stored, not even the session
    expect(model.requests).toHaveLength(0);
    // The session takes messages again.
    expect((await send(runner, { role: 'user', parts: [{ text: 'hi' }] })).map((e) => e.text())).toEqual(['ok']);
  });

  it('refuses a message whose strings pass maxChars; a message at the limits passes the check', async () => {
    const { runner, session } = setup({ maxChars: 100, maxDepth: 5 });
    const events = await send(runner, { role: 'user', parts: [{ text: 'x'.repeat(60) }, { text: 'y'.repeat(60) }] });
    expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining('larger than 100 characters')]]);
    expect(await session()).toBeUndefined();
    // A part counts as the JSON text it would be: `{"text":"…"}` is the text and 11 characters, so 89 pass and 90 do not.
    expect(checkNewMessage({ role: 'user', parts: [{ text: 'x'.repeat(89) }] }, { maxChars: 100, maxDepth: 5 })).toBeUndefined();
    expect(checkNewMessage({ role: 'user', parts: [{ text: 'x'.repeat(90) }] }, { maxChars: 100, maxDepth: 5 })?.message).toContain('larger than 100 characters');
    // part (1) → functionResponse (2) → response (3) → nested objects: 5 levels in all pass, 6 do not.
    expect(checkNewMessage(deepAnswer(3), { maxChars: 100, maxDepth: 5 })).toBeUndefined();
    expect(checkNewMessage(deepAnswer(4), { maxChars: 100, maxDepth: 5 })?.message).toContain('nested deeper than 5 levels');
  });

  it('counts numbers, booleans, nulls and the JSON punctuation, not only strings and keys: a 600,000-number answer is refused', async () => {
    const { runner, model, session } = setup();
    const answer = (response: Record<string, unknown>): Content => ({ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'x', response } }] });
    for (const values of [new Array<number>(600_000).fill(0), new Array<null>(600_000).fill(null), new Array<boolean>(300_000).fill(true)]) {
      const events = await send(runner, answer({ values }));
      expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining('larger than 1000000 characters')]]);
    }
    // Many empty objects cost their braces and commas too.
    const empties = Array.from({ length: 400_000 }, () => ({}));
    expect(checkNewMessage(answer({ empties }))?.message).toContain("larger than 1000000 characters. Send less, or raise the runner's argumentLimits.maxChars (a file counts as its base64 text");
    expect(await session()).toBeUndefined();
    expect(model.requests).toHaveLength(0);
    // Each measure is the JSON text's length, exactly: at the limit passes, one character more does not.
    for (const response of [{ n: [1, 22, -333, 1.5, 1e21] }, { b: [true, false, null] }, { o: { a: {}, b: [] } }]) {
      const part = { functionResponse: { id: 'c1', name: 'x', response } };
      const chars = JSON.stringify(part).length;
      expect(checkNewMessage({ role: 'user', parts: [part] }, { maxChars: chars, maxDepth: 64 })).toBeUndefined();
      expect(checkNewMessage({ role: 'user', parts: [part] }, { maxChars: chars - 1, maxDepth: 64 })?.message).toContain(`larger than ${chars - 1} characters`);
    }
  });

  it('refuses a key a user Content does not have (a 5,000-deep or 2M-character `meta`); nothing is stored', async () => {
    const { runner, model, session } = setup();
    const deepArray: unknown[] = [];
    let inner = deepArray;
    for (let i = 0; i < 5_000; i++) inner.push((inner = []));
    for (const meta of [deepArray, 'x'.repeat(2_000_000), { fine: true }]) {
      const events = await send(runner, { role: 'user', parts: [{ text: 'hi' }], meta } as unknown as Content);
      expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining('a key "meta" a user Content does not have')]]);
    }
    expect(await session()).toBeUndefined();
    expect(model.requests).toHaveLength(0);
    // An over-long key is quoted cut, not whole, in the error.
    expect(checkNewMessage({ role: 'user', parts: [{ text: 'x' }], ['k'.repeat(1000)]: 1 })?.message.length).toBeLessThan(300);
    // role and parts alone pass; an inherited key is not the message's own.
    expect(checkNewMessage(Object.assign(Object.create({ inherited: 1 }) as object, { role: 'user', parts: [{ text: 'x' }] }))).toBeUndefined();
  });

  it('refuses a message that throws when read, a sparse parts array and a value JSON does not carry: INVALID_MESSAGE, no session created', async () => {
    const throwing = new Proxy({}, { get: () => { throw new Error('proxy'); }, ownKeys: () => { throw new Error('proxy'); } });
    const cases: [unknown, string][] = [
      [throwing, 'reading it threw an error'],
      [{ role: 'user', get parts() { throw new Error('parts getter'); } }, 'reading it threw an error'],
      [{ role: 'user', parts: [{ get text() { throw new Error('text getter'); } }] }, 'reading it threw an error'],
      [{ role: 'user', parts: [, { text: 'x' }] }, 'part 0 is not an object'],
      // A toJSON of its own would be stored as what it returns (5,000 characters under a limit of 1,000).
      [{ role: 'user', parts: [{ text: 'x', toJSON: () => ({ text: 'y'.repeat(5_000) }) }] }, 'part 0 holds a value JSON does not carry'],
      [{ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'x', response: { total: 10n } } }] }, 'part 0 holds a value JSON does not carry'],
      [{ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'x', response: { when: new Date(0) } } }] }, 'part 0 holds a value JSON does not carry'],
      [{ role: 'user', parts: [{ text: 'x' }, { functionResponse: { id: 'c1', name: 'x', response: { list: [Symbol('s')] } } }] }, 'part 1 holds a value JSON does not carry'],
    ];
    for (const [message, reason] of cases) {
      const { runner, model, session } = setup({ maxChars: 1_000, maxDepth: 64 });
      const events = await send(runner, message as Content);
      expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining(reason)]]);
      expect(await session()).toBeUndefined();
      expect(model.requests).toHaveLength(0);
    }
  });

  it('refuses a message holding NaN, Infinity or -Infinity anywhere: INVALID_MESSAGE, nothing stored', async () => {
    const cases: Content[] = [
      { role: 'user', parts: [{ text: 'x', score: NaN } as never] },
      { role: 'user', parts: [{ text: 'x', extra: { v: Infinity } } as never] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'x', response: { list: [1, -Infinity] } } }] },
    ];
    for (const message of cases) {
      const { runner, model, session } = setup();
      const events = await send(runner, message);
      expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining('part 0 holds a value JSON does not carry')]]);
      expect(await session()).toBeUndefined();
      expect(model.requests).toHaveLength(0);
    }
  });

  it('counts a key whose value is undefined as JSON writes it: not at all', () => {
    const part = { functionResponse: { id: 'c1', name: 'x', response: { a: 1, gone: undefined } } };
    const chars = JSON.stringify(part).length;
    expect(checkNewMessage({ role: 'user', parts: [part] }, { maxChars: chars, maxDepth: 64 })).toBeUndefined();
    expect(checkNewMessage({ role: 'user', parts: [part] }, { maxChars: chars - 1, maxDepth: 64 })?.message).toContain(`larger than ${chars - 1} characters`);
  });

  it("measures a confirmation answer's copy of the call alone, as the call's arguments were: JSON text by its characters, an object from its own depth", () => {
    const limits = { maxChars: 400, maxDepth: 5 };
    const answer = (args: unknown): Content => ({
      role: 'user',
      parts: [{ functionResponse: { id: 'c1', name: 'toolsmith_request_confirmation', response: { decision: 'approve', confirmed: true, originalFunctionCall: { id: 'c1', name: 'store', args } } } }],
    });
    expect(checkNewMessage(answer('x'.repeat(400)), limits)).toBeUndefined();
    expect(checkNewMessage(answer('x'.repeat(401)), limits)?.message).toContain('part 0 copies a call whose arguments are larger than 400 characters');
    expect(checkNewMessage(answer({ doc: 'd'.repeat(400 - 10) }), limits)).toBeUndefined();
    expect(checkNewMessage(answer({ doc: 'd'.repeat(401 - 10) }), limits)?.message).toContain('part 0 copies a call whose arguments are larger than 400 characters');
    expect(checkNewMessage(answer(nested(5)), limits)).toBeUndefined();
    expect(checkNewMessage(answer(nested(6)), limits)?.message).toContain('part 0 copies a call whose arguments are nested deeper than 5 levels');
    expect(checkNewMessage(answer({ when: new Date(0) }), limits)?.message).toContain('part 0 copies a call whose arguments are not JSON');
  });

  it('exposes the limits it applies: the options, else the defaults', () => {
    expect(setup().runner.argumentLimits).toEqual({ maxChars: 1_000_000, maxDepth: 64 });
    expect(setup({ maxChars: 10, maxDepth: 2 }).runner.argumentLimits).toEqual({ maxChars: 10, maxDepth: 2 });
  });
});
