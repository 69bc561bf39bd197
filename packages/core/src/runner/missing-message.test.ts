import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import type { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { user } from './__fixtures__/test-tools';
import { Runner, type RunInput } from './runner';

// docs/runner.md: "runner.run never throws", and a newMessage that is not a user Content "gives one
// INVALID_MESSAGE event and nothing is stored or run". A missing message is not one.
describe('a run without a message', () => {
  function setup() {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(() => 'the model answered');
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model }), sessionService });
    return { runner, model, sessionService };
  }

  async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
    const out: Event[] = [];
    for await (const event of events) out.push(event);
    return out;
  }

  it('newMessage undefined on an existing session: one INVALID_MESSAGE event, the model is not called, nothing stored', async () => {
    const { runner, model, sessionService } = setup();
    await drain(runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('hello') }));
    const calls = model.requests.length;

    const events = await drain(runner.run({ userId: 'u1', sessionId: 's1', newMessage: undefined as unknown as Content }));

    expect(events.map((event) => [event.errorCode, event.author])).toEqual([['INVALID_MESSAGE', 'clerk']]);
    expect(events[0].errorMessage).toContain('The new message is not valid');
    expect(model.requests.length).toBe(calls);
    const stored = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!.events;
    expect(stored.map((event) => event.author)).toEqual(['user', 'clerk']);
  });

  it('newMessage undefined on a new session creates no session', async () => {
    const { runner, model, sessionService } = setup();
    const events = await drain(runner.run({ userId: 'u1', sessionId: 'fresh', newMessage: undefined as unknown as Content }));
    expect(events.map((event) => event.errorCode)).toEqual(['INVALID_MESSAGE']);
    expect(model.requests.length).toBe(0);
    expect(await sessionService.listSessions({ appName: 'app', userId: 'u1' })).toEqual([]);
  });

  it('run(undefined) does not throw: its iterator yields one INVALID_MESSAGE event', async () => {
    const { runner, model, sessionService } = setup();
    const run = () => runner.run(undefined as unknown as RunInput);
    expect(run).not.toThrow();
    expect((await drain(run())).map((event) => event.errorCode)).toEqual(['INVALID_MESSAGE']);
    expect(model.requests.length).toBe(0);
    expect(await sessionService.listSessions({ appName: 'app', userId: 'u1' })).toEqual([]);
  });
});
