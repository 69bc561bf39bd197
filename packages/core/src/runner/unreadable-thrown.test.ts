import { LlmAgent } from '../agents/llm-agent';
import { thrownMessage } from '../errors/thrown-message';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { Event } from '../events/event';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner } from './runner';

const KEY = { appName: 'app', userId: 'u1', sessionId: 's1' };

/** Values anything may throw that cannot be read or turned into text. */
function unreadableValues(): Array<[string, () => unknown]> {
  return [
    ['an object without a prototype', () => Object.create(null)],
    [
      'a revoked Proxy',
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
    ],
    ['an object whose toString throws', () => ({ toString: () => { throw new Error('no text'); } })],
    [
      'an Error whose message getter throws',
      () => {
        const error = new Error('x');
        Object.defineProperty(error, 'message', { get: () => { throw new Error('no message'); } });
        return error;
      },
    ],
    [
      'an object branded as a Toolsmith error whose fields throw',
      () => ({ [Symbol.for('toolsmith.error')]: true, get code(): string { throw new Error('no code'); }, get message(): string { throw new Error('no message'); } }),
    ],
  ];
}

function noteRunner(plugins: ConstructorParameters<typeof Runner>[0]['plugins'] = []) {
  const sessionService = new InMemorySessionService();
  const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
  const note = new FnTool('note', () => ({ ok: true }));
  return { runner: new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [note] }), sessionService, plugins }), sessionService };
}

const run = (runner: Runner, text: string) => runner.run({ userId: 'u1', sessionId: 's1', newMessage: user(text) });

async function all(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('thrownMessage', () => {
  it.each(unreadableValues())('describes %s without throwing', (_, value) => {
    expect(typeof thrownMessage(value())).toBe('string');
  });

  it("is an Error's message, or the value as text", () => {
    expect(thrownMessage(new Error('boom'))).toBe('boom');
    expect(thrownMessage('plain')).toBe('plain');
    expect(thrownMessage(42)).toBe('42');
  });
});

describe('a run that is thrown a value that cannot be read', () => {
  it.each(unreadableValues())('throw(%s) mid-run ends on a stored INTERNAL_ERROR event and passes the session on', async (_, value) => {
    const { runner, sessionService } = noteRunner();
    const events = run(runner, 'hi');
    await events.next(); // the model's call
    const answer = await events.throw(value());
    expect(answer.done).toBe(false);
    expect((answer.value as Event).errorCode).toBe('INTERNAL_ERROR');
    expect(await events.next()).toEqual({ value: undefined, done: true });
    const stored = (await sessionService.getSession(KEY))!.events;
    expect(stored.at(-1)!.errorCode).toBe('INTERNAL_ERROR');
    // The turn and the claim were passed on: the next run on the session runs to its end.
    expect((await all(run(runner, 'again'))).map((event) => event.text()).at(-1)).toBe('done');
  });

  it.each(unreadableValues())('a beforeModel plugin that throws %s ends the run on an INTERNAL_ERROR event, and the next run starts', async (_, value) => {
    let calls = 0;
    const { runner } = noteRunner([
      {
        name: 'thrower',
        beforeModel: () => {
          if (calls++ === 0) throw value();
          return undefined;
        },
      },
    ]);
    const first = await all(run(runner, 'hi'));
    expect(first.map((event) => event.errorCode)).toEqual(['INTERNAL_ERROR']);
    expect((await all(run(runner, 'again'))).map((event) => event.text()).at(-1)).toBe('done');
  });
});

describe('ToolsmithError.isInstance', () => {
  it('is false, not a throw, for a revoked Proxy', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(ToolsmithError.isInstance(proxy)).toBe(false);
  });
});

/** Toolsmith errors (they carry the brand) that cannot be reported as they are. */
function unreportableErrors(): Array<[string, () => unknown]> {
  const brand = Symbol.for('toolsmith.error');
  return [
    ['whose code getter throws', () => ({ [brand]: true, get code(): string { throw new Error('no code'); }, message: 'm' })],
    ['whose message getter throws', () => ({ [brand]: true, code: 'X_FAILED', get message(): string { throw new Error('no message'); } })],
    ['whose details getter throws', () => ({ [brand]: true, code: 'X_FAILED', message: 'm', get details(): unknown { throw new Error('no details'); } })],
    ['with an empty code', () => new ToolsmithError('' as never, 'm')],
    ['with a blank code', () => new ToolsmithError('  \n ' as never, 'm')],
    ['with a code that is no string', () => ({ [brand]: true, code: 42, message: 'm' })],
    ['with a code of 300,000 characters', () => new ToolsmithError('X'.repeat(300_000) as never, 'm')],
    ['with a secret as its code', () => new ToolsmithError('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' as never, 'm')],
    [
      'whose code answers well twice, then throws',
      () => {
        const error = new ToolsmithError('GOOD_CODE' as never, 'm');
        let reads = 0;
        Object.defineProperty(error, 'code', {
          get: () => {
            if (++reads > 2) throw new Error('code boom');
            return 'GOOD_CODE';
          },
        });
        return error;
      },
    ],
    ['that is a Proxy of a real one', () => new Proxy(new ToolsmithError('GOOD_CODE' as never, 'm'), {})],
    ['whose code holds a right-to-left override', () => new ToolsmithError('RATE\u202eDETIMIL' as never, 'm')],
    ['whose code holds a URL with a password', () => new ToolsmithError('db_at_postgres://admin:hunter2@db_failed' as never, 'm')],
  ];
}

describe('a Toolsmith error that cannot be reported as it is', () => {
  it.each(unreportableErrors())('thrown by a tool (%s): the model gets TOOL_EXECUTION_FAILED and the turn goes on', async (_, value) => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
    const note = new FnTool('note', () => {
      throw value();
    });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [note] }), sessionService });
    const events = await all(run(runner, 'hi'));
    expect(events.map((event) => event.errorCode)).toEqual([undefined, undefined, undefined]);
    const response = events[1].functionResponses()[0].response as { error: { code: string; message: string } };
    expect(response.error.code).toBe('TOOL_EXECUTION_FAILED');
    expect(response.error.message.length).toBeLessThan(2_000);
    expect(events[2].text()).toBe('done');
  });

  it.each(unreportableErrors())('thrown into the run (%s): an INTERNAL_ERROR event', async (_, value) => {
    const { runner } = noteRunner();
    const events = run(runner, 'hi');
    await events.next();
    expect(((await events.throw(value())).value as Event).errorCode).toBe('INTERNAL_ERROR');
  });

  it("a secret-looking code is redacted in the event, as the message is", async () => {
    const { runner } = noteRunner();
    const events = run(runner, 'hi');
    await events.next();
    const failed = (await events.throw(new ToolsmithError('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' as never, 'key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789'))).value as Event;
    expect(failed.errorCode).not.toContain('abcdefghijklmnop');
    expect(failed.errorMessage).not.toContain('abcdefghijklmnop');
  });
});

describe('a Toolsmith error whose details cannot be read', () => {
  it('thrown by a tool: the model gets its code and message, detailsOmitted says why, and the turn goes on', async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
    const note = new FnTool('note', () => {
      throw new ToolsmithError('GOOD_CODE' as never, 'it failed', { details: proxy });
    });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [note] }), sessionService: new InMemorySessionService() });
    const events = await all(run(runner, 'hi'));
    const response = events[1].functionResponses()[0].response as { error: Record<string, unknown> };
    expect(response.error).toMatchObject({ code: 'GOOD_CODE', detailsOmitted: expect.stringContaining("the error's details cannot be read") });
    expect(events[2].text()).toBe('done');
  });
});

describe('a tool error changed after it was taken as it is', () => {
  it.each([
    ['a secret', (error: { code: unknown }) => void (error.code = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789')],
    ['a getter that throws', (error: object) => void Object.defineProperty(error, 'code', { get: () => { throw new Error('code boom'); } })],
    ['a code of 300,000 characters', (error: { code: unknown }) => void (error.code = 'X'.repeat(300_000))],
  ])('by an onToolError callback (its code made %s): the model gets TOOL_EXECUTION_FAILED and the turn goes on', async (_, change) => {
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
    const note = new FnTool('note', () => {
      throw new ToolsmithError('NOTE_FAILED' as never, 'the note failed');
    });
    const callbacks = {
      onToolError: ({ error }: { error: object }) => {
        change(error as { code: unknown });
        return undefined;
      },
    };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [note], callbacks }), sessionService: new InMemorySessionService() });
    const events = await all(run(runner, 'hi'));
    expect(events.map((event) => event.errorCode)).toEqual([undefined, undefined, undefined]);
    const response = events[1].functionResponses()[0].response as { error: { code: string } };
    expect(response.error.code).toBe('TOOL_EXECUTION_FAILED');
    expect(JSON.stringify(events)).not.toContain('abcdefghijklmnop');
    expect(events[2].text()).toBe('done');
  });
});
