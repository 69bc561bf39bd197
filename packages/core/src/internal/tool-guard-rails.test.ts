import { LlmAgent } from '../agents/llm-agent';
import { InMemoryArtifactService } from '../artifacts/in-memory-artifact-service';
import { Event } from '../events/event';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ToolsmithError } from '../errors/toolsmith-error';
import { invokeTool } from '../testing/invoke-tool';
import { ScriptedModel } from '../testing/scripted-model';
import { functionTool } from '../function-tool/function-tool';
import { ToolContext } from '../tools/tool-context';
import { DEFAULT_MAX_RESULT_CHARS, DEFAULT_TOOL_TIMEOUT_MS } from '../tools/tool-call-policy';

const user = (text: string) => ({ role: 'user' as const, parts: [{ text }] });

async function drain(iterable: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('tool results that are not JSON', () => {
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = circular;
  const cases: Array<[string, () => unknown, string]> = [
    ['a BigInt', () => ({ total: 10n }), 'BigInt'],
    ['a circular object', () => circular, 'or circular'],
    ['a result nested 10,000 levels deep', () => { let v: Record<string, unknown> = {}; for (let i = 0; i < 10_000; i++) v = { v }; return v; }, 'deeper than 512'],
    ['a function', () => ({ callback: () => 1 }), 'function'],
    ['a function as the whole result', () => () => 1, 'function'],
    ['a symbol', () => ({ id: Symbol('x') }), 'symbol'],
    ['a throwing getter', () => ({ get boom() { throw new Error('getter exploded'); } }), 'getter exploded'],
    ['a throwing toJSON', () => ({ toJSON() { throw new Error('nope'); } }), 'nope'],
    ['NaN', () => ({ average: NaN }), 'NaN'],
    ['Infinity', () => ({ ratio: Infinity }), 'Infinity'],
    ['a Map', () => ({ byId: new Map([['a', 1]]) }), 'Map'],
    ['a Set', () => new Set([1]), 'Set'],
  ];

  it.each(cases)('%s becomes an INVALID_TOOL_RESULT response; the session still serializes and the next run works', async (_, make, reason) => {
    const bad = functionTool({ name: 'bad', description: 'Returns something odd.', execute: () => make() });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'bad', args: {} }] }, 'ok', 'again']), tools: [bad] }) });

    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    const [response] = events.flatMap((e) => e.functionResponses());
    expect(response).toMatchObject({ isError: true, response: { error: { code: 'INVALID_TOOL_RESULT' } } });
    expect((response.response.error as { message: string }).message).toContain(reason);
    const session = (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(() => JSON.stringify(session.toJSON())).not.toThrow();
    expect((await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('more') }))).at(-1)!.text()).toBe('again');
  });

  it('a Date (it has toJSON) and undefined properties are fine', async () => {
    const tool = functionTool({ name: 'when', description: 'Dates.', execute: () => ({ at: new Date(0), missing: undefined }) });
    const out = await invokeTool(tool, 'when', {});
    expect(out.isError).toBe(false);
  });

  it('afterTool and onToolError replacements are checked the same way', async () => {
    const ok = functionTool({ name: 'ok', description: 'Fine.', execute: () => ({ fine: true }) });
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'ok', args: {} }] }, 'done']), tools: [ok] }),
      plugins: [{ name: 'odd', afterTool: () => ({ n: 1n }) as unknown as Record<string, unknown> }],
    });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    expect(events.flatMap((e) => e.functionResponses())[0].response).toMatchObject({ error: { code: 'INVALID_TOOL_RESULT' } });
  });
});

describe('tool timeouts', () => {
  it('has a documented default, and Infinity turns it off', async () => {
    expect(DEFAULT_TOOL_TIMEOUT_MS).toBe(300_000);
    expect(DEFAULT_MAX_RESULT_CHARS).toBe(100_000);
    jest.useFakeTimers();
    try {
      for (const [timeoutMs, timers] of [[Infinity, 0], [undefined, 1]] as const) {
        const started = deferred();
        const finish = deferred();
        const tool = functionTool({ name: 'patient', description: 'Waits.', timeoutMs, execute: async () => (started.resolve(), await finish.promise, { done: true }) });
        const call = invokeTool(tool, 'patient', {}, { toolTimeoutMs: 60_000 });
        await started.promise;
        expect(jest.getTimerCount()).toBe(timers); // the tool's own Infinity wins over the runner's 60 s
        finish.resolve();
        expect((await call).response).toEqual({ done: true });
        expect(jest.getTimerCount()).toBe(0); // the timer is cleared when the call settles
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it("a call past its timeout gets TOOL_TIMEOUT, its ctx.signal aborts, the run goes on, and it leaves nothing behind: no state, no artifact, before or after", async () => {
    const finishLate = deferred();
    const lateWriteDone = deferred<unknown[]>();
    let seenSignal: AbortSignal | undefined;
    const artifactService = new InMemoryArtifactService();
    const slow = functionTool({
      name: 'slow',
      description: 'Ignores cancellation.',
      timeoutMs: 1,
      execute: async (_: unknown, ctx: ToolContext) => {
        seenSignal = ctx.signal;
        ctx.state.set('before', true);
        await ctx.saveArtifact('before.txt', { text: 'written before the timeout' });
        await finishLate.promise;
        const refusals: unknown[] = [];
        for (const late of [() => ctx.state.set('late', true), () => ctx.saveArtifact('late.txt', { text: 'late' })]) {
          try {
            await late();
          } catch (error) {
            refusals.push(error);
          }
        }
        lateWriteDone.resolve(refusals);
        return { late: true };
      },
    });
    const fast = functionTool({ name: 'fast', description: 'Quick.', execute: (_: unknown, ctx: ToolContext) => (ctx.state.set('fast', true), { ok: true }) });
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({
        name: 'bot',
        model: new ScriptedModel([{ calls: [{ id: 's1', name: 'slow', args: {} }, { id: 'f1', name: 'fast', args: {} }] }, 'carried on']),
        tools: [slow, fast],
      }),
      artifactService,
    });

    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    expect(events.flatMap((e) => e.functionResponses()).map((r) => [r.id, (r.response.error as { code?: string } | undefined)?.code ?? 'ok'])).toEqual([
      ['s1', 'TOOL_TIMEOUT'],
      ['f1', 'ok'],
    ]);
    expect(seenSignal!.aborted).toBe(true);
    expect(events.at(-1)!.text()).toBe('carried on');

    finishLate.resolve();
    expect(await lateWriteDone.promise).toEqual([expect.objectContaining({ code: 'TOOL_TIMEOUT' }), expect.objectContaining({ code: 'TOOL_TIMEOUT' })]);
    const session = (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(session.state).toEqual({ fast: true });
    expect(session.events.every((e) => Object.keys(e.actions.artifactDelta).length === 0)).toBe(true);
    expect(await artifactService.listArtifactKeys({ appName: 'app', userId: 'u', sessionId: 's' })).toEqual([]);
  });

  it('invokeTool reports no writes of a timed-out or aborted call, and deletes the artifacts it saved (one mechanism with the runner)', async () => {
    const artifactService = new InMemoryArtifactService();
    let saved = deferred();
    const writer = functionTool({
      name: 'writer',
      description: 'Writes, then hangs.',
      execute: async (_: unknown, ctx: ToolContext) => {
        ctx.state.set('written', true);
        ctx.actions.escalate = true;
        await ctx.saveArtifact('report.txt', { text: 'partial' });
        saved.resolve();
        return new Promise(() => undefined);
      },
    });
    const timedOut = await invokeTool(writer, 'writer', {}, { toolTimeoutMs: 50, artifactService, sessionId: 'timeout' });
    expect(timedOut.error).toMatchObject({ code: 'TOOL_TIMEOUT' });
    expect(timedOut.stateDelta).toEqual({});
    expect(timedOut.actions).toEqual({ stateDelta: {}, artifactDelta: {} });
    expect(await artifactService.listArtifactKeys({ appName: 'test-app', userId: 'test-user', sessionId: 'timeout' })).toEqual([]);

    saved = deferred();
    const controller = new AbortController();
    const aborted = invokeTool(writer, 'writer', {}, { signal: controller.signal, artifactService, appName: 'test-app', sessionId: 'abort' });
    await saved.promise;
    controller.abort();
    const out = await aborted;
    expect(out.error).toMatchObject({ code: 'RUN_ABORTED' });
    expect(out.stateDelta).toEqual({});
    expect(await artifactService.listArtifactKeys({ appName: 'test-app', userId: 'test-user', sessionId: 'abort' })).toEqual([]);
  });

  it('the runner-wide default applies through invokeTool too; a synchronous tool cannot be timed out', async () => {
    const never = functionTool({ name: 'never', description: 'Never ends.', execute: () => new Promise(() => undefined) });
    const out = await invokeTool(never, 'never', {}, { toolTimeoutMs: 1 });
    expect(out.error).toMatchObject({ code: 'TOOL_TIMEOUT', timeoutMs: 1 });
    const sync = functionTool({ name: 'sync', description: 'Sync.', execute: () => ({ done: true }) });
    expect((await invokeTool(sync, 'sync', {}, { toolTimeoutMs: 1 })).response).toEqual({ done: true });
  });
});

describe('the timeout and the run\'s abort cover every step of a call before its run', () => {
  // A Standard Schema whose async validate never settles (an async refinement waiting on a dead database).
  const hangingSchema = (called?: () => void) => ({
    '~standard': {
      version: 1 as const,
      vendor: 'test',
      validate: () => (called?.(), new Promise<never>(() => undefined)),
      jsonSchema: { input: () => ({ type: 'object', properties: { a: { type: 'string' } } }), output: () => ({ type: 'object', properties: { a: { type: 'string' } } }) },
    },
  });

  it('a validation that never settles: TOOL_TIMEOUT by the timeout, RUN_ABORTED at once by an abort; the tool never runs', async () => {
    let ran = false;
    const hung = functionTool({ name: 'hung', description: 'Validates forever.', parameters: hangingSchema() as never, execute: () => ((ran = true), { ok: true }) });
    expect((await invokeTool(hung, 'hung', { a: 'x' }, { toolTimeoutMs: 1 })).error).toMatchObject({ code: 'TOOL_TIMEOUT', timeoutMs: 1 });

    const validating = deferred();
    const controller = new AbortController();
    const aborted = functionTool({ name: 'aborted', description: 'Validates forever.', parameters: hangingSchema(validating.resolve) as never, execute: () => ((ran = true), { ok: true }) });
    const call = invokeTool(aborted, 'aborted', { a: 'x' }, { signal: controller.signal, toolTimeoutMs: Infinity });
    await validating.promise;
    controller.abort();
    expect((await call).error).toMatchObject({ code: 'RUN_ABORTED' });
    const already = await invokeTool(aborted, 'aborted', { a: 'x' }, { signal: controller.signal, toolTimeoutMs: Infinity });
    expect(already.error).toMatchObject({ code: 'RUN_ABORTED' });
    expect(ran).toBe(false);
  });

  it("class-validator's checks of refused arguments that never settle end by the timeout too", async () => {
    const tool = functionTool({ name: 'dto', description: 'Checks forever.', parameters: { type: 'object', properties: { a: { type: 'string' } } }, execute: () => ({ ok: true }) });
    // What a DTO tool with a custom async constraint does when ajv refused the arguments: class-validator lists its problems too.
    Object.assign(tool, { dtoArgumentProblems: () => new Promise<never>(() => undefined) });
    expect((await invokeTool(tool, 'dto', { a: 1 }, { toolTimeoutMs: 1 })).error).toMatchObject({ code: 'TOOL_TIMEOUT' });
  });

  const never = () => new Promise<never>(() => undefined);
  const steps: Array<[string, (tool: { timeoutMs: number }) => { tool: ReturnType<typeof functionTool>; options?: object }]> = [
    ['a Standard Schema validate', ({ timeoutMs }) => ({ tool: functionTool({ name: 't', description: 'd', parameters: hangingSchema() as never, timeoutMs, execute: () => ({ ok: true }) }) })],
    ['a beforeTool callback', ({ timeoutMs }) => ({ tool: functionTool({ name: 't', description: 'd', timeoutMs, execute: () => ({ ok: true }) }), options: { plugins: [{ name: 'slow', beforeTool: never }] } })],
    ['the confirmation policy', ({ timeoutMs }) => ({ tool: functionTool({ name: 't', description: 'd', timeoutMs, execute: () => ({ ok: true }) }), options: { confirmationPolicy: never } })],
    ['a requireConfirmation rule', ({ timeoutMs }) => ({ tool: functionTool({ name: 't', description: 'd', timeoutMs, requireConfirmation: never, execute: () => ({ ok: true }) }) })],
    ['a confirmation hint', ({ timeoutMs }) => ({ tool: functionTool({ name: 't', description: 'd', timeoutMs, requireConfirmation: true, confirmationHint: never, execute: () => ({ ok: true }) }) })],
    [
      'the grant gate',
      ({ timeoutMs }) => ({
        tool: functionTool({ name: 't', description: 'd', timeoutMs, requireConfirmation: true, execute: () => ({ ok: true }) }),
        options: { grantService: { createGrant: never, applicableGrants: never, listGrants: never, revokeGrant: never, revokeSessionGrants: never } },
      }),
    ],
  ];

  it.each(steps)('%s that never settles: the call gets TOOL_TIMEOUT, the run ends and the session takes its next message', async (_, make) => {
    const { tool, options } = make({ timeoutMs: 1 });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c', name: 't', args: {} }] }, 'gave up', 'next']), tools: [tool] }), ...options });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    expect(events.flatMap((e) => e.functionResponses()).map((r) => (r.response.error as { code?: string } | undefined)?.code)).toEqual(['TOOL_TIMEOUT']);
    expect(events.at(-1)!.text()).toBe('gave up');
    expect((await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('again') }))).at(-1)!.text()).toBe('next');
  });

  it("a sequential tool's next call does not wait for the validation of a call that timed out (its tool never started)", async () => {
    let first = true;
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: (value: unknown) => (first ? ((first = false), new Promise<never>(() => undefined)) : { value }),
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    };
    const ledger = functionTool({ name: 'ledger', description: 'd', parameters: schema as never, sequential: true, timeoutMs: 1, execute: () => ({ booked: true }) });
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c1', name: 'ledger', args: {} }, { id: 'c2', name: 'ledger', args: {} }] }, 'done']), tools: [ledger] }),
    });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    expect(events.flatMap((e) => e.functionResponses()).map((r) => (r.response.error as { code?: string } | undefined)?.code ?? r.response)).toEqual(['TOOL_TIMEOUT', { booked: true }]);
  });
});

describe('result size budget', () => {
  const big = functionTool({ name: 'big', description: 'Lots of rows.', maxResultChars: 300, execute: () => ({ rows: Array.from({ length: 200 }, (_, i) => `row-${i}`) }) });

  it('cuts a larger result, keeping head and tail with a note', async () => {
    const out = await invokeTool(big, 'big', {});
    const response = out.response as { truncated: boolean; head: string; tail: string; note: string; originalChars: number };
    expect(response.truncated).toBe(true);
    expect(response.head.startsWith('{"rows":["row-0"')).toBe(true);
    expect(response.tail.endsWith('"row-199"]}')).toBe(true);
    expect(JSON.stringify(out.response).length).toBeLessThanOrEqual(300);
    expect(response.note).toContain('over the limit of 300');
  });

  it('counts what is sent: a result full of characters JSON escapes is cut to the budget once escaped again (no overshoot)', async () => {
    const quotes = functionTool({ name: 'quotes', description: 'Quotes.', execute: () => ({ text: '"\\'.repeat(100_000), lines: 'a\nb'.repeat(20_000) }) });
    for (const artifactService of [undefined, new InMemoryArtifactService()]) {
      const out = await invokeTool(quotes, 'quotes', {}, { artifactService });
      const sent = JSON.stringify(out.response).length;
      expect(sent).toBeLessThanOrEqual(100_000);
      expect(sent).toBeGreaterThan(99_900); // and the room is used
      const rows = functionTool({ name: 'rows', description: 'Rows.', execute: () => ({ rows: Array.from({ length: 200 }, (_, i) => `row-${i}`) }) });
      const plain = await invokeTool(rows, 'rows', {}, { maxResultChars: 1_000, artifactService });
      expect(JSON.stringify(plain.response).length).toBeLessThanOrEqual(1_000);
      expect(JSON.stringify(plain.response).length).toBeGreaterThan(990);
    }
  });

  it('leaves out error details JSON cannot carry (a BigInt, a cycle), saying why, so the session still serializes', async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const [details, why] of [[{ total: 10n }, /"total" is a BigInt/], [cycle, /circular/]] as const) {
      const thrower = functionTool({ name: 'thrower', description: 'Throws.', execute: () => { throw new ToolsmithError('QUOTA_EXCEEDED', 'Over quota.', { details }); } });
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'thrower', args: {} }] }, 'sorry']), tools: [thrower] }) });
      const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
      expect(events.flatMap((e) => e.functionResponses())[0].response).toEqual({ error: { code: 'QUOTA_EXCEEDED', message: 'Over quota.', detailsOmitted: expect.stringMatching(why) } });
      const stored = (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
      expect(() => JSON.stringify(stored.toJSON())).not.toThrow();
      expect((runner.sessionService as InMemorySessionService).toJSON()).toBeDefined();
      expect(() => JSON.stringify((runner.sessionService as InMemorySessionService).toJSON())).not.toThrow();
    }
    const fine = functionTool({ name: 'fine', description: 'Throws.', execute: () => { throw new ToolsmithError('QUOTA_EXCEEDED', 'Over quota.', { details: { limit: 5 } }); } });
    expect((await invokeTool(fine, 'fine', {})).response).toEqual({ error: { code: 'QUOTA_EXCEEDED', message: 'Over quota.', details: { limit: 5 } } });
  });

  it('keeps the whole result as an artifact when an artifact service is configured, and tells the model its name', async () => {
    const artifactService = new InMemoryArtifactService();
    const out = await invokeTool(big, 'big', {}, { artifactService, functionCallId: 'call-7' });
    expect(out.response).toMatchObject({ truncated: true, artifact: 'tool-result-call-7.json' });
    expect(out.actions.artifactDelta).toEqual({ 'tool-result-call-7.json': 0 });
    const saved = await artifactService.loadArtifact({ appName: 'test-app', userId: 'test-user', sessionId: 'test-session', filename: 'tool-result-call-7.json' });
    expect(JSON.parse(Buffer.from(saved!.inlineData!.data, 'base64').toString())).toEqual({ rows: Array.from({ length: 200 }, (_, i) => `row-${i}`) });
  });

  it('the runner-wide limit applies when the tool sets none', async () => {
    const small = functionTool({ name: 'small', description: 'x', execute: () => ({ text: 'x'.repeat(50) }) });
    expect((await invokeTool(small, 'small', {}, { maxResultChars: 20 })).response).toMatchObject({ truncated: true });
    expect((await invokeTool(small, 'small', {})).response).toEqual({ text: 'x'.repeat(50) });
  });
});

describe('error exposure policy', () => {
  const secret = functionTool({
    name: 'db',
    description: 'Queries.',
    execute: () => {
      throw new Error('connection to postgres://admin:hunter2@10.0.0.5 refused');
    },
  });

  it("'message' (default) sends the error's message; no stack reaches the model or the session", async () => {
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'db', args: {} }] }, 'sorry']), tools: [secret] }) });
    await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    const stored = JSON.stringify((await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.toJSON());
    expect(stored).toContain('connection to postgres');
    expect(stored).not.toMatch(/\n\s+at /);
    expect(stored).not.toContain('tool-guard-rails.test');
  });

  it("'generic' hides the message from the model; onToolError still sees the whole error", async () => {
    const seen: unknown[] = [];
    const out = await invokeTool(secret, 'db', {}, { toolErrorExposure: 'generic' });
    expect(out.response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'The tool failed.' } });
    expect((out.error!.cause as Error).message).toContain('hunter2');
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'db', args: {} }] }, 'sorry']), tools: [secret] }),
      toolErrorExposure: 'generic',
      plugins: [{ name: 'log', onToolError: ({ error }) => void seen.push(error.cause) }],
    });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    expect(JSON.stringify(events.map((e) => e.toJSON()))).not.toContain('hunter2');
    expect(String(seen[0])).toContain('hunter2');
  });

  it('a function decides the text', async () => {
    const out = await invokeTool(secret, 'db', {}, { toolErrorExposure: (error, tool) => `${tool}: ${(error as Error).message.split(' ')[0]}` });
    expect(out.response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'db: connection' } });
  });

  it('a function that returns no text sends the generic text, never the error message', async () => {
    for (const policy of [() => undefined, () => '', () => 42]) {
      const out = await invokeTool(secret, 'db', {}, { toolErrorExposure: policy as unknown as (error: unknown) => string });
      expect(out.response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'The tool failed.' } });
    }
  });
});

describe('tool output contracts', () => {
  // eslint-free: the decorators are plain functions here.
  const { Toolset, Tool } = jest.requireActual<typeof import('../index')>('../index');
  const { Param } = jest.requireActual<typeof import('../decorators/param.decorator')>('../decorators/param.decorator');
  const { IsInt, Min } = jest.requireActual<typeof import('class-validator')>('class-validator');

  class CountDto {
    @IsInt()
    @Min(0)
    n!: number;
  }

  @Toolset()
  class Counters {
    @Tool({ description: 'Counts.', outputSchema: { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] } })
    count(@Param('n') n: number) {
      return n < 0 ? { total: 'negative' } : { total: n };
    }

    @Tool({ description: 'Doubles.', outputSchema: { type: 'integer' } })
    double(dto: CountDto) {
      return dto.n === 3 ? 'three' : dto.n * 2;
    }
  }
  Reflect.defineMetadata('design:paramtypes', [CountDto], Counters.prototype, 'double');

  it('a flat @Param tool whose result breaks its outputSchema fails with TOOL_OUTPUT_INVALID, naming the path', async () => {
    expect((await invokeTool(Counters, 'count', { n: 2 })).response).toEqual({ total: 2 });
    const out = await invokeTool(Counters, 'count', { n: -1 });
    expect(out.error).toMatchObject({ code: 'TOOL_OUTPUT_INVALID', problems: [{ path: '/total', keyword: 'type' }] });
  });

  it('a DTO tool: the returned value (before wrapping as { result }) is checked', async () => {
    expect((await invokeTool(Counters, 'double', { n: 2 })).response).toEqual({ result: 4 });
    expect((await invokeTool(Counters, 'double', { n: 3 })).error).toMatchObject({ code: 'TOOL_OUTPUT_INVALID' });
  });

  it("'warn' lets the result through and emits a process warning; 'off' skips the check", async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const out = await invokeTool(Counters, 'count', { n: -1 }, { toolOutputValidation: 'warn' });
      expect(out.response).toEqual({ total: 'negative' });
      expect(emitWarning).toHaveBeenCalledTimes(1);
      expect(emitWarning.mock.calls[0]).toEqual([expect.stringContaining('total: got "negative", expected integer'), { code: 'TOOLSMITH_TOOL_OUTPUT_INVALID' }]);
      expect((await invokeTool(Counters, 'count', { n: -1 }, { toolOutputValidation: 'off' })).response).toEqual({ total: 'negative' });
      expect(emitWarning).toHaveBeenCalledTimes(1);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('in a run, the model gets the error response and onToolError sees the typed error', async () => {
    const seen: string[] = [];
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'count', args: { n: -1 } }] }, 'noted']), tools: [Counters] }),
      plugins: [{ name: 'log', onToolError: ({ error }) => void seen.push(error.code) }],
    });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    expect(events.flatMap((e) => e.functionResponses())[0].response).toMatchObject({ error: { code: 'TOOL_OUTPUT_INVALID' } });
    expect(seen).toEqual(['TOOL_OUTPUT_INVALID']);
  });
});
