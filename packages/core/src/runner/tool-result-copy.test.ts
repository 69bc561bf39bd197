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
