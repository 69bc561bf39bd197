import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import type { Session } from '../sessions/session';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

// docs/sessions.md: an accepted message stores "the message and every complete event of the run", and a
// resend of its messageId "yields the events that message produced, as stored": the error a run ends on included.
const KEY = { appName: 'app', userId: 'u1', sessionId: 's1' };

async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const describe_ = (event: Event) => event.errorCode ?? `${event.author}: ${event.text()}`;

describe('the error event a run ends on is stored', () => {
  it('an INTERNAL_ERROR of the agent is stored after the message, and a resend of the message yields it as stored', async () => {
    const sessionService = new InMemorySessionService();
    // A model callback that throws ends the run on INTERNAL_ERROR (docs/runner.md).
    const broken = () => {
      throw new Error('the callback broke');
    };
    const agent = new LlmAgent({ name: 'clerk', model: new ScriptedModel(['never']), callbacks: { beforeModel: broken } });
    const runner = new Runner({ appName: 'app', agent, sessionService });

    const events = await drain(runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('hi'), messageId: 'm1' }));

    expect(events.map(describe_)).toEqual(['INTERNAL_ERROR']);
    expect(events[0].errorMessage).toContain('the callback broke');
    const stored = (await sessionService.getSession(KEY))!.events;
    expect(stored.map(describe_)).toEqual(['user: hi', 'INTERNAL_ERROR']);
    expect(stored[1].id).toBe(events[0].id);

    const resent = await drain(runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('hi'), messageId: 'm1' }));
    expect(resent.map((event) => [event.id, event.errorCode])).toEqual([[events[0].id, 'INTERNAL_ERROR']]);
  });

  it("a consumer's throw() mid-run stores its INTERNAL_ERROR event after the events already handed out", async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'missing', args: {} }] }, 'never']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model }), sessionService });
    const events = runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('hi') });
    const first = (await events.next()).value as Event;

    const thrown = await events.throw(new Error('the caller gave up'));

    expect((thrown.value as Event).errorCode).toBe('INTERNAL_ERROR');
    expect(await events.next()).toEqual({ value: undefined, done: true });
    const stored = (await sessionService.getSession(KEY))!.events;
    expect(stored.map((event) => event.id)).toEqual([stored[0].id, first.id, (thrown.value as Event).id]);
  });

  it('a store that fails again on the error event: the run still yields the error and ends, never throwing', async () => {
    class FailingStore extends InMemorySessionService {
      appends = 0;
      override async appendEvent(session: Session, event: Event): Promise<Event> {
        // The user's message is stored; every append after it fails.
        if (++this.appends > 1) throw new Error('the store is down');
        return super.appendEvent(session, event);
      }
    }
    const sessionService = new FailingStore();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['hello']) }), sessionService });

    const events = await drain(runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('hi') }));

    expect(events.map(describe_)).toEqual(['INTERNAL_ERROR']);
    expect(events[0].errorMessage).toContain('the store is down');
    // The model's answer and the error event were both tried, and refused.
    expect(sessionService.appends).toBe(3);
    expect((await sessionService.getSession(KEY))!.events.map(describe_)).toEqual(['user: hi']);
  });

  it('a message refused before the agent runs stores nothing, its error included', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['never']) }), sessionService });
    const events = await drain(runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'model', parts: [{ text: 'x' }] } }));
    expect(events.map(describe_)).toEqual(['INVALID_MESSAGE']);
    expect(await sessionService.getSession(KEY)).toBeUndefined();
  });
});
