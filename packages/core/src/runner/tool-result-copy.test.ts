import { LlmAgent } from '../agents/llm-agent';
import { functionTool } from '../function-tool/function-tool';
import type { Content } from '../model/content';
import { ScriptedModel } from '../testing/scripted-model';
import { Runner } from './runner';

const message = (text: string): Content => ({ role: 'user', parts: [{ text }] });

describe("a tool's result in the session", () => {
  it('is a plain-JSON copy: a tool that returns a cached object and changes it later changes neither the stored result nor the history the model reads', async () => {
    const cache: Record<string, unknown> = { price: 100, at: 'first', tags: ['a'], missing: undefined, when: new Date(Date.UTC(2026, 0, 2)) };
    const quote = functionTool({ name: 'quote', description: 'Quotes.', parameters: { type: 'object', properties: {} }, execute: () => cache });
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts.some((p) => p.functionResponse) ? 'ok' : { calls: [{ name: 'quote', args: {} }] }));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [quote] }) });
    const expected = { price: 100, at: 'first', tags: ['a'], when: '2026-01-02T00:00:00.000Z' };

    const first = await runner.ask({ userId: 'u', sessionId: 's', newMessage: message('one') });
    const yielded = first.events.flatMap((e) => e.functionResponses());
    cache.price = 999;
    cache.at = 'changed later';
    (cache.tags as string[]).push('b');

    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.events[2].functionResponses()[0].response).toStrictEqual(expected);
    expect(yielded[0].response).toStrictEqual(expected);

    await runner.ask({ userId: 'u', sessionId: 's', newMessage: message('two') });
    const history = model.requests.at(-1)!.contents;
    expect(history[2].parts[0].functionResponse!.response).toStrictEqual(expected);
    // The second call's result is the cache as it is now.
    expect(history.at(-1)!.parts[0].functionResponse!.response).toMatchObject({ price: 999, at: 'changed later', tags: ['a', 'b'] });
  });

  it('is what JSON makes of it: boxed primitives are their primitives, and a toJSON that makes the response a non-object is wrapped as { result }', async () => {
    const results: unknown[] = [
      { s: new String('abc'), n: new Number(3), b: new Boolean(false) },
      { toJSON: () => 'str' },
      { toJSON: () => 42 },
      { toJSON: () => [1, 2] },
      { toJSON: () => null },
      { toJSON: () => undefined },
    ];
    let next = 0;
    const odd = functionTool({ name: 'odd', description: 'Odd results.', parameters: { type: 'object', properties: {} }, execute: () => results[next++] as Record<string, unknown> });
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts.some((p) => p.functionResponse) ? 'ok' : { calls: [{ name: 'odd', args: {} }] }));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [odd] }) });
    const stored: unknown[] = [];
    for (let i = 0; i < results.length; i++) {
      const { events } = await runner.ask({ userId: 'u', sessionId: `s${i}`, newMessage: message('go') });
      stored.push(events.flatMap((e) => e.functionResponses())[0].response);
    }
    expect(stored).toStrictEqual([
      { s: 'abc', n: 3, b: false },
      { result: 'str' },
      { result: 42 },
      { result: [1, 2] },
      { result: null },
      { result: null },
    ]);
  });
});

/** A value that throws when read: a revoked Proxy (an immer draft after its scope, say), or an object whose `then` getter throws. */
function unreadable(kind: 'revoked' | 'then'): unknown {
  if (kind === 'then') return Object.defineProperty({}, 'then', { get: () => { throw new Error('then is not readable'); } });
  const { proxy, revoke } = Proxy.revocable({ total: 1 }, {});
  revoke();
  return proxy;
}

describe('a tool result that throws when read', () => {
  it.each([
    ['revoked', false],
    ['revoked', true],
    ['then', false],
    ['then', true],
  ] as const)('(%s, with a callback: %s) is the call\'s TOOL_EXECUTION_FAILED; the run goes on', async (kind, withCallback) => {
    const bad = functionTool({ name: 'bad', description: 'Bad.', parameters: { type: 'object', properties: {} }, execute: () => unreadable(kind) as Record<string, unknown> });
    const model = new ScriptedModel([{ calls: [{ id: 'b1', name: 'bad', args: {} }] }, 'done']);
    const callbacks = withCallback ? { callbacks: { afterTool: () => undefined } } : {};
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [bad], ...callbacks }) });
    const { events } = await runner.ask({ userId: 'u', sessionId: 's', newMessage: message('go') });
    expect(events.map((e) => e.errorCode).filter(Boolean)).toEqual([]);
    expect(events.flatMap((e) => e.functionResponses()).map((r) => (r.response.error as { code?: string } | undefined)?.code)).toEqual(['TOOL_EXECUTION_FAILED']);
    expect(events.at(-1)!.content?.parts).toEqual([{ text: 'done' }]);
  });

  it("loses nothing of a sibling call: its result and its state write are stored", async () => {
    const pay = functionTool({
      name: 'pay', description: 'Pays.', parameters: { type: 'object', properties: {} },
      execute: async (_args: Record<string, unknown>, ctx) => {
        await Promise.resolve();
        ctx.state.set('paid', true);
        return { paid: true };
      },
    });
    const bad = functionTool({ name: 'bad', description: 'Bad.', parameters: { type: 'object', properties: {} }, execute: () => unreadable('revoked') as Record<string, unknown> });
    const model = new ScriptedModel([{ calls: [{ id: 'p1', name: 'pay', args: {} }, { id: 'b1', name: 'bad', args: {} }] }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [pay, bad] }) });
    const { events } = await runner.ask({ userId: 'u', sessionId: 's', newMessage: message('go') });
    expect(events.map((e) => e.errorCode).filter(Boolean)).toEqual([]);
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.state).toEqual({ paid: true });
    const responses = session!.events.flatMap((e) => e.functionResponses());
    expect(responses.map((r) => [r.id, r.response.paid ?? (r.response.error as { code?: string }).code])).toEqual([['p1', true], ['b1', 'TOOL_EXECUTION_FAILED']]);
  });
});
