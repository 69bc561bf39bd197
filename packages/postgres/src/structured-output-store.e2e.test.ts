import { InMemorySessionService, LlmAgent, Runner, type SessionService } from '@toolsmith/core';
import { ScriptedModel, collect } from '@toolsmith/core/testing';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { PostgresSessionService } from './postgres-session-service';

// docs/runner.md (Structured output): a valid answer is stored as plain JSON, and an output value that is
// not plain JSON (a Standard Schema transform's BigInt, Date, cycle or function) is OUTPUT_INVALID, with
// nothing stored under outputKey: in memory and on PGlite alike, the run goes on to its retries.

/** A Standard Schema (with its JSON Schema) whose valid output is `transform` of the answer, as a library's transform makes it. */
function transforming(transform: (answer: { a: number }) => unknown): StandardSchemaV1 {
  const jsonSchema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => ({ value: transform(value as { a: number }) }),
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    } as StandardSchemaV1.Props,
  };
}

const notJson: [string, (answer: { a: number }) => unknown][] = [
  ['a BigInt', (answer) => ({ ...answer, x: 1n })],
  ['a Date', (answer) => ({ ...answer, x: new Date(0) })],
  ['a cycle', (answer) => { const o: Record<string, unknown> = { ...answer }; o.self = o; return o; }],
  ['a function', (answer) => ({ ...answer, x: () => 1 })],
];

describe.each<[string, () => SessionService & { close?(): Promise<void> }]>([
  ['in memory', () => new InMemorySessionService()],
  ['PGlite', () => PostgresSessionService.embedded()],
])('structured output that is not plain JSON (%s)', (_store, open) => {
  jest.setTimeout(60_000); // a bound, not a wait: PGlite (WASM) starts slowly on a busy machine

  it.each(notJson)('refuses an output value holding %s as OUTPUT_INVALID, its retries stored, nothing under outputKey', async (_what, transform) => {
    const sessionService = open();
    try {
      const agent = new LlmAgent({ name: 'a', model: new ScriptedModel(['{"a":1}', '{"a":2}', '{"a":3}']), outputSchema: transforming(transform), outputKey: 'out' });
      const events = await collect(new Runner({ appName: 'app', agent, sessionService }).run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }));

      expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', 'OUTPUT_INVALID', 'OUTPUT_INVALID']);
      const session = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      expect(session!.state).toEqual({});
      expect(session!.events.map((event) => event.errorCode)).toEqual([undefined, 'OUTPUT_INVALID', 'OUTPUT_INVALID', 'OUTPUT_INVALID']);
    } finally {
      await sessionService.close?.();
    }
  });

  it('stores the plain copy of a valid output value', async () => {
    const sessionService = open();
    try {
      const agent = new LlmAgent({ name: 'a', model: new ScriptedModel(['{"a":1}']), outputSchema: transforming((answer) => ({ ...answer, zero: -0, gone: undefined })), outputKey: 'out' });
      const events = await collect(new Runner({ appName: 'app', agent, sessionService }).run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }));

      expect(events[0].output).toEqual({ a: 1, zero: 0 });
      const session = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      expect(session!.state).toEqual({ out: { a: 1, zero: 0 } });
      expect(session!.events[1].output).toEqual({ a: 1, zero: 0 });
    } finally {
      await sessionService.close?.();
    }
  });
});
