import { LlmAgent } from '../agents/llm-agent';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { Runner } from './runner';

// The in-memory store creates the session for a run's first message in the step that stores the
// message: the session's creation and the message's event share one reading of the wall clock.
describe("a run's first message to a session it creates", () => {
  afterEach(() => jest.restoreAllMocks());

  it('is stored with the time the session was created (one clock read for both)', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['Hello.']) }), sessionService });
    let clock = 1_000;
    const readings: number[] = [];
    jest.spyOn(Date, 'now').mockImplementation(() => {
      readings.push((clock += 10));
      return clock;
    });
    for await (const _event of runner.run({ userId: 'u1', sessionId: 'fresh', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) {
      // (drained)
    }
    const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 'fresh' }))!;
    const [message, answer] = session.events;
    expect(message.author).toBe('user');
    // The session's creation is the run's first clock reading; the message has no reading of its own.
    expect(message.timestamp).toBe(readings[0]);
    expect(readings.filter((reading) => reading === message.timestamp)).toHaveLength(1);
    expect(answer.timestamp).toBeGreaterThan(message.timestamp);
    expect(session.lastUpdateTime).toBe(answer.timestamp);
  });

  it('a session that exists keeps its time; the message reads the clock itself', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['Hello.']) }), sessionService });
    const created = await sessionService.createSession({ appName: 'app', userId: 'u1', sessionId: 'old' });
    let clock = created.lastUpdateTime;
    jest.spyOn(Date, 'now').mockImplementation(() => (clock += 10));
    for await (const _event of runner.run({ userId: 'u1', sessionId: 'old', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) {
      // (drained)
    }
    const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 'old' }))!;
    expect(session.events[0].timestamp).toBeGreaterThan(created.lastUpdateTime);
  });
});
