import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner, type RunInput } from './runner';

// docs/runner.md: run() never throws; it reads its input once, into plain values, and an input it cannot
// read, or whose values are of the wrong kind, is one INVALID_MESSAGE event: nothing stored, created or run.
describe('runner.run with an input it cannot take', () => {
  function revoked(): object {
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    return revocable.proxy;
  }

  const valid = () => ({ userId: 'u', sessionId: 's', newMessage: user('hello') });
  const throwing = (name: string) => Object.defineProperty(valid(), name, { enumerable: true, get: () => { throw new Error(`no ${name}`); } });

  const inputs: Array<[string, () => unknown, string]> = [
    ['a revoked Proxy', revoked, "reading the run's input threw"],
    ['a userId getter that throws', () => throwing('userId'), 'no userId'],
    ['a sessionId getter that throws', () => throwing('sessionId'), 'no sessionId'],
    ['a newMessage getter that throws', () => throwing('newMessage'), 'no newMessage'],
    ['a messageId getter that throws', () => throwing('messageId'), 'no messageId'],
    ['a signal getter that throws', () => throwing('signal'), 'no signal'],
    ['a streaming getter that throws', () => throwing('streaming'), 'no streaming'],
    ['a numeric sessionId', () => ({ ...valid(), sessionId: 5 }), "the run's sessionId is a number, not a string"],
    ['an object as userId', () => ({ ...valid(), userId: { toString: () => 'u' } }), "the run's userId is an object, not a string"],
    ['a missing userId', () => ({ sessionId: 's', newMessage: user('hello') }), "the run's userId is missing"],
    // Ids every store keeps as given: PostgreSQL refuses NUL, and would store a lone surrogate as U+FFFD (two ids, one session).
    ['a sessionId with NUL', () => ({ ...valid(), sessionId: 'a\u0000b' }), "the run's sessionId has a control character"],
    ['a userId with a lone surrogate', () => ({ ...valid(), userId: 'u\ud800' }), "the run's userId has a lone surrogate"],
    ['a sessionId over 256 characters', () => ({ ...valid(), sessionId: 'x'.repeat(257) }), "the run's sessionId is longer than 256 characters"],
    ['a signal that is not an AbortSignal', () => ({ ...valid(), signal: { aborted: false } }), "the run's signal is an object, not an AbortSignal"],
    ['a revoked Proxy as signal', () => ({ ...valid(), signal: revoked() }), "reading the run's input threw"],
    ['a string as streaming', () => ({ ...valid(), streaming: 'yes' }), "the run's streaming is a string, not a boolean"],
    ['an object made from AbortSignal.prototype', () => ({ ...valid(), signal: Object.create(AbortSignal.prototype) }), "the run's signal is an AbortSignal that cannot be read"],
    [
      'a Proxy of a signal whose traps throw',
      () => ({ ...valid(), signal: new Proxy(new AbortController().signal, { get: () => { throw new Error('trap'); } }) }),
      "the run's signal is an AbortSignal that cannot be read (trap)",
    ],
  ];

  it.each(inputs)('%s: run() does not throw; one INVALID_MESSAGE event, nothing stored, created or run', async (_name, input, reason) => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(() => 'the model answered');
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model }), sessionService });
    const events: Event[] = [];
    const run = runner.run(input() as RunInput);
    for await (const event of run) events.push(event);
    expect(events.map((event) => [event.errorCode, event.author])).toEqual([['INVALID_MESSAGE', 'clerk']]);
    expect(events[0].errorMessage).toContain(reason);
    expect(model.requests).toHaveLength(0);
    expect(await sessionService.listSessions({ appName: 'app', userId: 'u' })).toEqual([]);
  });

  it("a signal's own getters and listener methods are never called: its real state is read, and an abort whose reason getter throws aborts the run (no uncaught exception)", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    // Node rethrows what an abort listener throws as an uncaught exception, ending the process.
    Object.defineProperty(signal, 'reason', { get: () => { throw new Error('reason getter'); } });
    Object.defineProperty(signal, 'aborted', { get: () => { throw new Error('aborted getter'); } });
    Object.defineProperty(signal, 'addEventListener', { value: () => { throw new Error('addEventListener'); } });
    let toolRuns = 0;
    const charge = new FnTool('charge', () => {
      toolRuns++;
      return { charged: true };
    });
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'charge', args: {} }] }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model, tools: [charge] }) });
    const events: Event[] = [];
    for await (const event of runner.run({ ...valid(), signal })) {
      events.push(event);
      if (event.functionCalls().length > 0) controller.abort(new Error('the user cancelled'));
    }
    expect(toolRuns).toBe(0);
    expect(events.at(-1)).toMatchObject({ errorCode: 'RUN_ABORTED' });
  });

  it('a valid input with an AbortSignal and streaming runs as before', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(() => 'the model answered') }), sessionService });
    const events: Event[] = [];
    for await (const event of runner.run({ ...valid(), signal: new AbortController().signal, streaming: false })) events.push(event);
    expect(events.map((event) => event.text())).toEqual(['the model answered']);
  });
});

// docs/sessions.md: the app's name keys every store as userId and sessionId do, so the Runner refuses one a store would change when it is built.
describe('new Runner with an appName no store keeps as given', () => {
  const agent = () => new LlmAgent({ name: 'a', model: new ScriptedModel(['ok']) });
  it.each([
    ['a lone surrogate', 'shop\ud800', 'appName has a lone surrogate'],
    ['NUL', 'shop\u0000', 'appName has a control character'],
    ['a number', 7, 'appName is a number, not a string'],
    ['over 256 characters', 'x'.repeat(257), 'appName is longer than 256 characters'],
  ])('refuses one with %s (AGENT_CONFIG_INVALID)', (_what, appName, problem) => {
    expect(() => new Runner({ appName: appName as string, agent: agent() })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining(problem) }));
  });

  it('takes a pair (one character above U+FFFF) and 256 characters', () => {
    expect(new Runner({ appName: 'shop \u{1F6D2}', agent: agent() }).appName).toBe('shop \u{1F6D2}');
    expect(new Runner({ appName: 'x'.repeat(256), agent: agent() }).appName).toHaveLength(256);
  });
});
