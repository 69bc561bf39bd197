import { LlmAgent } from '../agents/llm-agent';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { confirmationResponse } from '../confirmation/confirmation-response';
import type { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { collect } from '../testing/collect';
import { ScriptedModel } from '../testing/scripted-model';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';
import { refundTool } from '../testing/conformance/conformance-tools';

function setup() {
  const sessionService = new InMemorySessionService();
  const charges: number[] = [];
  const charge = functionTool({
    name: 'charge',
    description: 'Charges the card.',
    parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    execute: ({ amount }: { amount: number }) => {
      charges.push(amount);
      return { charged: amount };
    },
  });
  const models: ScriptedModel[] = [];
  // Each runner stands for one process on the shared store.
  const runner = () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'charge', args: { amount: 5 } }] }, 'Charged 5.', 'Anything else?']);
    models.push(model);
    return new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'cashier', model, tools: [charge] }), sessionService });
  };
  const stored = async () => (await sessionService.getSession({ appName: 'shop', userId: 'u', sessionId: 's' }))?.events ?? [];
  const calls = () => models.reduce((n, m) => n + m.callCount, 0);
  return { runner, charges, stored, calls };
}

const ids = (events: readonly Event[]) => events.map((e) => e.id);

describe('messageId: a message sent again', () => {
  it('is not stored or run again; the run yields what the message produced', async () => {
    const { runner, charges, stored, calls } = setup();
    const app = runner();
    const first = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: user('charge 5'), messageId: 'm-1' }));
    const before = await stored();

    const again = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: user('charge 5'), messageId: 'm-1' }));

    expect(first.at(-1)!.text()).toBe('Charged 5.');
    expect(before[0]).toMatchObject({ author: 'user', id: 'msg:m-1' });
    expect(ids(again)).toEqual(ids(first)); // what the run yielded the first time, as stored
    expect(ids(again)).toEqual(ids(before.slice(1)));
    expect(again.at(-1)!.text()).toBe('Charged 5.');
    expect(charges).toEqual([5]);
    expect(calls()).toBe(2);
    expect(ids(await stored())).toEqual(ids(before));

    // Another id is another message.
    const next = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: user('thanks'), messageId: 'm-2' }));
    expect(next.at(-1)!.text()).toBe('Anything else?');
    expect((await stored()).length).toBe(before.length + 2);
  });

  it('sent to two processes at once: one runs it, the other waits for the session and answers with the same events', async () => {
    const { runner, charges, stored } = setup();
    const [a, b] = await Promise.all([runner(), runner()].map((app) => collect(app.run({ userId: 'u', sessionId: 's', newMessage: user('charge 5'), messageId: 'm-1' }))));

    expect(charges).toEqual([5]);
    expect(ids(a)).toEqual(ids(b)); // the waiting one yields the stored events of the run that ran it
    const events = await stored();
    expect(events.filter((e) => e.author === 'user' && e.text() === 'charge 5')).toHaveLength(1);
    expect([a.at(-1)!.text(), b.at(-1)!.text()]).toEqual(['Charged 5.', 'Charged 5.']);
  });

  it('that was refused is not held: sent again, it is checked (and refused) again', async () => {
    const { runner, stored } = setup();
    const app = runner();
    const bad = { role: 'user' as const, parts: [{ functionResponse: { id: 'nothing-pending', name: 'charge', response: {} } }] };
    const first = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: bad, messageId: 'm-1' }));
    const again = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: bad, messageId: 'm-1' }));
    expect([first, again].map((events) => events.map((e) => e.errorCode))).toEqual([['FUNCTION_RESPONSE_NOT_PENDING'], ['FUNCTION_RESPONSE_NOT_PENDING']]);
    expect(await stored()).toEqual([]);
  });
  it('an approval sent again under its id yields the result it produced (the tool ran once), where an approval under a new id is refused', async () => {
    const sessionService = new InMemorySessionService();
    const refunds: number[] = [];
    const refund = refundTool(refunds);
    const model = new ScriptedModel([{ calls: [{ id: 'r1', name: 'refund', args: { amount: 9 } }] }, 'Refunded 9.']);
    const app = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, tools: [refund] }), sessionService });
    const paused = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: user('refund 9'), messageId: 'm-1' }));
    const [request] = paused.flatMap((e) => confirmationRequests(e));
    const answer = confirmationResponse(request.call, { confirmed: true });

    const approved = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: answer, messageId: 'a-1' }));
    const again = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: answer, messageId: 'a-1' }));
    const otherId = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: answer, messageId: 'a-2' }));

    expect(approved.at(-1)!.text()).toBe('Refunded 9.');
    expect(ids(again)).toEqual(ids(approved));
    expect(otherId.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(refunds).toEqual([9]);
  });

  it('refused with SESSION_BUSY is not held: sent again under its id once the session is free, it runs', async () => {
    const { charges, stored } = setup();
    const sessionService = new InMemorySessionService();
    const holder = await sessionService.claimSession({ appName: 'shop', userId: 'u', sessionId: 's', holder: 'other-process', leaseMs: 60_000 });
    if (!holder.claimed) throw new Error('not claimed');
    const charge = functionTool({ name: 'charge', description: 'Charges.', execute: () => ({ charged: charges.push(5) }) });
    const app = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'cashier', model: new ScriptedModel([{ calls: [{ name: 'charge', args: {} }] }, 'Charged.']), tools: [charge] }),
      sessionService,
      sessionClaim: { onBusy: 'fail' },
    });
    const busy = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: user('charge'), messageId: 'm-1' }));
    await sessionService.releaseClaim({ appName: 'shop', userId: 'u', sessionId: 's' }, holder.claim.fence);
    const again = await collect(app.run({ userId: 'u', sessionId: 's', newMessage: user('charge'), messageId: 'm-1' }));

    expect(busy.map((e) => e.errorCode)).toEqual(['SESSION_BUSY']);
    expect(again.at(-1)!.text()).toBe('Charged.');
    expect(charges).toEqual([5]);
    expect(await stored()).toEqual([]); // (setup's own store is untouched)
    expect((await sessionService.getSession({ appName: 'shop', userId: 'u', sessionId: 's' }))!.events[0].id).toBe('msg:m-1');
  });
});

describe('messageId: what an id may be', () => {
  it.each([
    ['empty', '', 'its messageId is empty'],
    ['not a string', { a: 1 }, 'its messageId is a object, not a string'],
    ['a number', 5, 'its messageId is a number, not a string'],
    ['over 256 characters', 'x'.repeat(257), 'longer than 256 characters'],
    ['with NUL (PostgreSQL cannot store it)', 'm\u00001', 'a control character or a lone surrogate'],
    ['with a lone surrogate', 'm\ud800', 'a control character or a lone surrogate'],
  ])('%s: refused with INVALID_MESSAGE by the runner, whatever the store; nothing stored or run', async (_label, messageId, reason) => {
    const { runner, charges, stored, calls } = setup();
    const events = await collect(runner().run({ userId: 'u', sessionId: 's', newMessage: user('charge 5'), messageId: messageId as string }));
    expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([['INVALID_MESSAGE', expect.stringContaining(reason)]]);
    expect([await stored(), charges, calls()]).toEqual([[], [], 0]);
  });

  it('256 characters, emoji and spaces are ids like any other', async () => {
    const { runner, charges } = setup();
    for (const messageId of ['x'.repeat(256), 'm \u{1F600} 1']) {
      await collect(runner().run({ userId: 'u', sessionId: `s${messageId.length}`, newMessage: user('charge 5'), messageId }));
    }
    expect(charges).toEqual([5, 5]);
  });
});
