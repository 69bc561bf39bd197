import { Event } from '../events/event';
import { LlmAgent } from '../agents/llm-agent';
import { Runner } from '../runner/runner';
import { ScriptedModel } from '../testing/scripted-model';
import { FnTool, collect } from '../runner/__fixtures__/test-tools';
import { InMemorySessionService } from './in-memory-session-service';
import { Session } from './session';

describe('InMemorySessionService', () => {
  const key = { appName: 'app', userId: 'u', sessionId: 's' };

  it('creates, lists, gets and deletes sessions; initial state follows the scope rules', async () => {
    const service = new InMemorySessionService();
    await service.createSession({ ...key, state: { 'app:theme': 'dark', 'user:name': 'Ann', n: 1, 'temp:x': 1 } });
    const other = await service.createSession({ appName: 'app', userId: 'v' });

    expect((await service.getSession(key))!.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ann', n: 1 });
    expect(other.state).toEqual({ 'app:theme': 'dark' });
    expect((await service.listSessions({ appName: 'app', userId: 'u' })).map((s) => s.id)).toEqual(['s']);
    await expect(service.createSession(key)).rejects.toMatchObject({ code: 'SESSION_EXISTS' });
    await service.deleteSession(key);
    expect(await service.getSession(key)).toBeUndefined();
  });

  it('applies deltas on append (null deletes) and ignores partial events', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession({ ...key, state: { a: 1, b: 2 } });
    const event = Event.create({ invocationId: 'i', author: 'agent', actions: { stateDelta: { a: null, c: 3 }, artifactDelta: {} } });
    await service.appendEvent(session, event);
    await service.appendEvent(session, Event.create({ invocationId: 'i', author: 'agent', partial: true }));

    expect(session.state).toEqual({ b: 2, c: 3 });
    expect((await service.getSession(key))!.state).toEqual({ b: 2, c: 3 });
    expect((await service.getSession(key))!.events).toHaveLength(1);
  });

  it('numbers events per session and refuses a stale writer with STALE_SESSION, storing nothing', async () => {
    const service = new InMemorySessionService();
    const first = await service.createSession({ ...key, state: { n: 0 } });
    const second = (await service.getSession(key))!;
    expect([first.lastSequence, second.lastSequence]).toEqual([0, 0]);

    await service.appendEvent(first, Event.create({ invocationId: 'i', author: 'a', actions: { stateDelta: { n: 1 }, artifactDelta: {} } }));
    expect(first.lastSequence).toBe(1);
    const stale = service.appendEvent(second, Event.create({ invocationId: 'j', author: 'b', actions: { stateDelta: { n: 99 }, artifactDelta: {} } }));
    await expect(stale).rejects.toMatchObject({ code: 'STALE_SESSION', expectedSequence: 0, actualSequence: 1 });

    const stored = (await service.getSession(key))!;
    expect(stored.events.map((e) => e.author)).toEqual(['a']);
    expect(stored.state).toEqual({ n: 1 });
    expect([stored.lastSequence, second.lastSequence, second.events.length]).toEqual([1, 0, 0]);
    // The sequence survives both JSON round trips.
    expect(Session.fromJSON(JSON.parse(JSON.stringify(stored))).lastSequence).toBe(1);
    expect((await InMemorySessionService.fromJSON(service.toJSON()).getSession(key))!.lastSequence).toBe(1);
  });

  it('refuses to append to a session it does not hold', async () => {
    const service = new InMemorySessionService();
    await expect(service.appendEvent(new Session({ id: 'x', appName: 'a', userId: 'u' }), Event.create({ invocationId: 'i', author: 'a' }))).rejects.toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
  });

  it('survives a JSON round trip after a real run, and the restored service continues the conversation', async () => {
    const service = new InMemorySessionService();
    const tool = new FnTool('remember', (args, ctx) => {
      ctx.state.set('user:fact', args.fact);
      return { ok: true };
    });
    const model = new ScriptedModel([{ calls: [{ name: 'remember', args: { fact: 'likes tea' } }] }, 'Noted.', 'You like tea.']);
    const agent = new LlmAgent({ name: 'root', model, tools: [tool] });
    await collect(new Runner({ appName: 'app', agent, sessionService: service }), 'I like tea');

    const restored = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service)));
    const before = await service.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    const after = await restored.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(after!.toJSON()).toEqual(before!.toJSON());
    expect(after!.events[1]).toBeInstanceOf(Event);
    expect(after!.events[1].functionCalls()[0].name).toBe('remember');

    const session = Session.fromJSON(JSON.parse(JSON.stringify(before)));
    expect(session.toJSON()).toEqual(before!.toJSON());

    const events = await collect(new Runner({ appName: 'app', agent, sessionService: restored }), 'What do I like?');
    expect(events.at(-1)!.text()).toBe('You like tea.');
    expect(model.requests[2].contents).toHaveLength(5);
  });

  it('reads the session in the claim when asked (load): what getSession returns right after it, nothing when the session is missing or the claim refused', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession({ ...key, state: { 'app:a': 1, 'user:b': 2, c: 3 } });
    await service.appendEvent(session, Event.create({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text: 'hi' }] }, actions: { stateDelta: { c: 4 }, artifactDelta: {} } }));

    const outcome = await service.claimSession({ ...key, holder: 'run-1', leaseMs: 60_000, load: true });
    if (!outcome.claimed || !outcome.loaded?.session) throw new Error('claim without the session');
    expect(outcome.loaded.session.toJSON()).toEqual((await service.getSession(key))!.toJSON());
    expect([outcome.loaded.session.lastSequence, outcome.loaded.session.state, outcome.loaded.session.events.length]).toEqual([1, { 'app:a': 1, 'user:b': 2, c: 4 }, 1]);
    // A copy: changing what the claim read changes nothing stored.
    outcome.loaded.session.events.pop();
    expect((await service.getSession(key))!.events).toHaveLength(1);

    expect(await service.claimSession({ ...key, sessionId: 'missing', holder: 'run-2', leaseMs: 60_000, load: true })).toMatchObject({ claimed: true, loaded: { session: undefined } });
    expect(await service.claimSession({ ...key, holder: 'run-3', leaseMs: 60_000, load: true })).toEqual({ claimed: false, holder: 'run-1', expiresAt: expect.any(Number) });
    expect(await service.claimSession({ ...key, sessionId: 'plain', holder: 'run-4', leaseMs: 60_000 })).not.toHaveProperty('loaded');
  });

  it('a run loads its session in the claim: no getSession on an existing session or a new one', async () => {
    let reads = 0;
    class CountingStore extends InMemorySessionService {
      override async getSession(...args: Parameters<InMemorySessionService['getSession']>) {
        reads++;
        return super.getSession(...args);
      }
    }
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: new ScriptedModel(() => 'Hi.') }), sessionService: new CountingStore() });
    const first = await collect(runner, 'one', { userId: 'u', sessionId: 's' });
    const second = await collect(runner, 'two', { userId: 'u', sessionId: 's' });
    expect([first.at(-1)!.text(), second.at(-1)!.text()]).toEqual(['Hi.', 'Hi.']);
    expect(reads).toBe(0);
    expect((await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events).toHaveLength(4);
  });

  describe('with appendEvent patched on the prototype (a monitoring wrapper)', () => {
    const original = InMemorySessionService.prototype.appendEvent;
    afterEach(() => {
      InMemorySessionService.prototype.appendEvent = original;
    });

    it('the wrapper sees every append of a run', async () => {
      const seen: string[] = [];
      InMemorySessionService.prototype.appendEvent = async function (this: InMemorySessionService, session: Session, event: Event) {
        seen.push(event.author);
        return original.call(this, session, event);
      };
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: new ScriptedModel(() => 'Hi.') }), sessionService: new InMemorySessionService() });
      const events = await collect(runner, 'one', { userId: 'u', sessionId: 's' });
      expect(events.at(-1)!.text()).toBe('Hi.');
      expect(seen).toEqual(['user', 'root']);
      expect((await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events).toHaveLength(2);
    });
  });

  it('keeps fencing numbers growing across a JSON move: a writer from before the move is refused with SESSION_BUSY', async () => {
    const service = new InMemorySessionService();
    const key = { appName: 'app', userId: 'u1', sessionId: 's1' };
    await service.createSession(key);
    const first = await service.claimSession({ ...key, holder: 'a', leaseMs: 60_000 });
    if (!first.claimed) throw new Error('first claim refused');
    const stale = (await service.getSession(key))!;
    stale.fence = first.claim.fence;
    await service.releaseClaim(key, first.claim.fence);

    const moved = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service)));
    const next = await moved.claimSession({ ...key, holder: 'b', leaseMs: 60_000 });
    if (!next.claimed) throw new Error('claim after the move refused');
    expect(next.claim.fence).toBeGreaterThan(first.claim.fence);
    await expect(moved.appendEvent(stale, Event.create({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text: 'late' }] } }))).rejects.toMatchObject({ code: 'SESSION_BUSY' });
  });
  it('forgets the claim of a deleted session once it is released or lapsed: its claims do not grow with the sessions it ever held, and fencing numbers still never repeat', async () => {
    let monotonic = 0;
    const service = new InMemorySessionService({ monotonicClock: () => monotonic });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: new ScriptedModel(() => 'Hi.') }), sessionService: service });
    const claimed = { appName: 'app', userId: 'u1', sessionId: 'again' };
    const fences: number[] = [];
    for (let i = 0; i < 50; i++) {
      // A run (claim, stores, release) on a new session, then the session is deleted.
      expect((await collect(runner, 'hello', { sessionId: `s${i}` })).at(-1)!.text()).toBe('Hi.');
      await service.deleteSession({ appName: 'app', userId: 'u1', sessionId: `s${i}` });
      // A session created again under one id each time, claimed and released, then deleted.
      await service.createSession(claimed);
      const claim = await service.claimSession({ ...claimed, holder: `h${i}`, leaseMs: 60_000 });
      if (!claim.claimed) throw new Error('claim refused');
      fences.push(claim.claim.fence);
      await service.releaseClaim(claimed, claim.claim.fence);
      await service.deleteSession(claimed);
      expect(service.toJSON().fences).toEqual({});
      // Nor does it keep anything of a user whose last session went.
      expect(service.toJSON().sessions).toEqual({});
    }
    for (let i = 1; i < fences.length; i++) expect(fences[i]).toBeGreaterThan(fences[i - 1]);

    // A claim that lapsed without a release is forgotten with its session's deletion too.
    await service.createSession(claimed);
    const lapsing = await service.claimSession({ ...claimed, holder: 'dead', leaseMs: 1_000 });
    if (!lapsing.claimed) throw new Error('claim refused');
    monotonic += 1_001;
    await service.deleteSession(claimed);
    expect(service.toJSON().fences).toEqual({});
    expect(service.toJSON().lastFence).toBe(lapsing.claim.fence);

    // A live claim is kept through the deletion: the session created again stays claimed, and its holder's late release forgets it.
    await service.createSession(claimed);
    const live = await service.claimSession({ ...claimed, holder: 'alive', leaseMs: 60_000 });
    if (!live.claimed) throw new Error('claim refused');
    expect(live.claim.fence).toBeGreaterThan(lapsing.claim.fence);
    await service.deleteSession(claimed);
    await service.createSession(claimed);
    expect(await service.claimSession({ ...claimed, holder: 'other', leaseMs: 60_000 })).toMatchObject({ claimed: false, holder: 'alive' });
    // Its appends are the holder's alone, as before the deletion.
    const unfenced = (await service.getSession(claimed))!;
    await expect(service.appendEvent(unfenced, Event.create({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text: 'x' }] } }))).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    unfenced.fence = live.claim.fence;
    await expect(service.appendEvent(unfenced, Event.create({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text: 'x' }] } }))).resolves.toBeDefined();
    await service.deleteSession(claimed);
    await service.releaseClaim(claimed, live.claim.fence);
    expect(service.toJSON().fences).toEqual({});

    // The counter moves with the data: after a JSON move a new claim still gets a higher number.
    const moved = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service)));
    await moved.createSession(claimed);
    const next = await moved.claimSession({ ...claimed, holder: 'next', leaseMs: 60_000 });
    expect(next).toMatchObject({ claimed: true });
    if (next.claimed) expect(next.claim.fence).toBeGreaterThan(live.claim.fence);
  });

  it('forgets a claim that lapsed with its session missing (deleted while held, or never created) when later claims find it; a live one stays until it lapses', async () => {
    let monotonic = 0;
    const service = new InMemorySessionService({ monotonicClock: () => monotonic });
    const claimed: number[] = [];
    const claim = async (sessionId: string, leaseMs: number): Promise<number> => {
      const outcome = await service.claimSession({ appName: 'app', userId: 'u', sessionId, holder: `h-${sessionId}`, leaseMs });
      if (!outcome.claimed) throw new Error(`claim of ${sessionId} refused`);
      claimed.push(outcome.claim.fence);
      return outcome.claim.fence;
    };
    // A holder that dies: the session is deleted while it holds the claim, which then lapses unreleased.
    for (let i = 0; i < 500; i++) {
      const sessionKey = { appName: 'app', userId: 'u', sessionId: `s${i}` };
      await service.createSession(sessionKey);
      await claim(`s${i}`, 10);
      await service.deleteSession(sessionKey);
      monotonic += 11;
    }
    // And claims on sessions never created that lapse (a run that died before its first store).
    for (let i = 0; i < 500; i++) {
      await claim(`never${i}`, 10);
      monotonic += 11;
    }
    // Each claim found the lapsed ones before it: only the newest is still remembered.
    expect(Object.keys(service.toJSON().fences!)).toEqual([JSON.stringify(['app', 'u', 'never499'])]);

    // A live claim of a deleted session stays through any number of claims, and still refuses another holder.
    await service.createSession({ appName: 'app', userId: 'u', sessionId: 'held' });
    const held = await claim('held', 60_000);
    await service.deleteSession({ appName: 'app', userId: 'u', sessionId: 'held' });
    for (let i = 0; i < 20; i++) await claim(`other${i}`, 60_000);
    expect(await service.claimSession({ appName: 'app', userId: 'u', sessionId: 'held', holder: 'thief', leaseMs: 1 })).toMatchObject({ claimed: false, holder: 'h-held' });
    expect(service.toJSON().fences![JSON.stringify(['app', 'u', 'held'])]).toBe(held);
    // Once it lapses, the next claims forget it and the others (each claim checks two and adds at most one).
    monotonic += 60_001;
    for (let i = 0; i < 30; i++) {
      await claim(`late${i}`, 1);
      monotonic += 2;
    }
    await claim('last', 1);
    expect(Object.keys(service.toJSON().fences!)).toEqual([JSON.stringify(['app', 'u', 'last'])]);
    expect(await service.renewClaim({ appName: 'app', userId: 'u', sessionId: 'held' }, held, 1_000)).toBe(false);

    // Fencing numbers never repeat: a forgotten claim's number is not granted again.
    await service.createSession({ appName: 'app', userId: 'u', sessionId: 'held' });
    await claim('held', 1_000);
    for (let i = 1; i < claimed.length; i++) expect(claimed[i]).toBeGreaterThan(claimed[i - 1]);
    // A JSON move keeps no claim of a session that does not exist, and the counter still grows.
    monotonic += 2;
    const moved = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service)) as ReturnType<InMemorySessionService['toJSON']>);
    expect(Object.keys(moved.toJSON().fences!)).toEqual([JSON.stringify(['app', 'u', 'held'])]);
    expect(await moved.claimSession({ appName: 'app', userId: 'u', sessionId: 'last', holder: 'next', leaseMs: 1 })).toMatchObject({ claimed: true, claim: { fence: claimed.at(-1)! + 1 } });
  });

  it.each([
    ['__proto__', 's', 'app'],
    ['u', '__proto__', 'app'],
    ['u', 's', '__proto__'],
    ['constructor', 'toString', 'hasOwnProperty'],
  ])('keeps every session and its app and user state through JSON, whatever the ids (user %j, session %j, app %j)', async (userId, sessionId, appName) => {
    const service = new InMemorySessionService();
    const runner = new Runner({ appName, agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['Hello!']) }), sessionService: service });
    expect((await collect(runner, 'Hi', { userId, sessionId })).map((e) => e.text())).toEqual(['Hello!']);
    const session = (await service.getSession({ appName, userId, sessionId }))!;
    await service.appendEvent(session, Event.create({ invocationId: 'i', author: 'bot', actions: { stateDelta: { 'app:a': 1, 'user:u': 2, s: 3 }, artifactDelta: {} } }));

    const moved = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service)) as ReturnType<InMemorySessionService['toJSON']>);
    const restored = (await moved.getSession({ appName, userId, sessionId }))!;
    expect(restored.events.map((e) => e.toJSON())).toEqual(session.events.map((e) => e.toJSON()));
    expect(restored.state).toEqual({ 'app:a': 1, 'user:u': 2, s: 3 });
    expect((await moved.listSessions({ appName, userId })).map((s) => s.id)).toEqual([sessionId]);
    expect(moved.toJSON()).toEqual(service.toJSON());
  });

  it('keeps a state key named __proto__ like any other, in every scope, through appends and a JSON move', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession({ ...key, state: JSON.parse('{"__proto__":{"x":1},"app:__proto__":2}') as Record<string, unknown> });
    const delta = JSON.parse('{"__proto__":{"y":2},"user:__proto__":3}') as Record<string, unknown>;
    await service.appendEvent(session, Event.create({ invocationId: 'i', author: 'bot', actions: { stateDelta: delta, artifactDelta: {} } }));
    const expected = JSON.parse('{"app:__proto__":2,"user:__proto__":3,"__proto__":{"y":2}}') as Record<string, unknown>;
    expect((await service.getSession(key))!.state).toEqual(expected);
    const moved = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(service)) as ReturnType<InMemorySessionService['toJSON']>);
    expect((await moved.getSession(key))!.state).toEqual(expected);
    expect(Object.getPrototypeOf((await moved.getSession(key))!.state)).toBe(Object.prototype);
  });

  it('a claim leaves the queue of claims without a session when its session is created: runs on new sessions leave later claims nothing to check', async () => {
    const service = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(() => 'Hello!') }), sessionService: service });
    const checks = jest.spyOn(service as unknown as { forgetLapsedClaimsWithoutSession(now: number): void }, 'forgetLapsedClaimsWithoutSession');
    for (let i = 0; i < 3; i++) {
      // Claimed before it exists, then created by the run: the claim is the session's from then on.
      expect((await collect(runner, 'Hi', { userId: 'u', sessionId: `new${i}` })).map((e) => e.text())).toEqual(['Hello!']);
      await service.deleteSession({ appName: 'app', userId: 'u', sessionId: `new${i}` });
    }
    expect(checks).not.toHaveBeenCalled();
    // A claim on a session that is never created still waits there, and the next claim checks it.
    await service.claimSession({ appName: 'app', userId: 'u', sessionId: 'never', holder: 'h', leaseMs: 60_000 });
    await service.claimSession({ appName: 'app', userId: 'u', sessionId: 'other', holder: 'h', leaseMs: 60_000 });
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it("reads its monotonic clock once for a run's claim: not for the run's stored events, its release, or deleting the session after it", async () => {
    let reads = 0;
    const service = new InMemorySessionService({ monotonicClock: () => ++reads });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['Hello!']) }), sessionService: service });
    const events = await collect(runner, 'Hi', { userId: 'u', sessionId: 'fresh' });
    expect(events.map((e) => e.text())).toEqual(['Hello!']);
    await service.deleteSession({ appName: 'app', userId: 'u', sessionId: 'fresh' });
    expect(reads).toBe(1);
    // The released claim went with the session: the next run on the id is granted a new one, with a larger number.
    expect(await service.claimSession({ appName: 'app', userId: 'u', sessionId: 'fresh', holder: 'next', leaseMs: 1_000 })).toMatchObject({ claimed: true, claim: { fence: 2 } });
  });

  it('runs claim leases on a monotonic clock: a jump of the wall clock neither expires a living claim nor keeps a lapsed one', async () => {
    let monotonic = 1_000;
    const service = new InMemorySessionService({ monotonicClock: () => monotonic });
    const session = await service.createSession(key);
    const wall = jest.spyOn(Date, 'now');
    try {
      wall.mockReturnValue(5_000_000);
      const held = await service.claimSession({ ...key, holder: 'run-1', leaseMs: 30_000 });
      expect(held).toEqual({ claimed: true, claim: { fence: 1, expiresAt: 5_030_000 } });

      wall.mockReturnValue(5_000_000 + 3_600_000); // the wall clock jumps an hour ahead
      expect(await service.claimSession({ ...key, holder: 'run-2', leaseMs: 30_000 })).toEqual({ claimed: false, holder: 'run-1', expiresAt: 8_630_000 });
      await expect(service.appendEvent(session, Event.create({ invocationId: 'i', author: 'x' }))).rejects.toMatchObject({ code: 'SESSION_BUSY', holder: 'run-1' });

      wall.mockReturnValue(1_000); // and back, far behind
      monotonic += 30_001; // the lease ran out on the monotonic clock
      expect(await service.claimSession({ ...key, holder: 'run-2', leaseMs: 30_000 })).toMatchObject({ claimed: true, claim: { fence: 2 } });
      expect(await service.renewClaim(key, 1, 30_000)).toBe(false);
      expect(await service.renewClaim(key, 2, 60_000)).toBe(true);
      monotonic += 59_999;
      expect(await service.claimSession({ ...key, holder: 'run-3', leaseMs: 1 })).toMatchObject({ claimed: false, holder: 'run-2' });
      await service.releaseClaim(key, 2);
      expect(await service.claimSession({ ...key, holder: 'run-3', leaseMs: 1 })).toMatchObject({ claimed: true, claim: { fence: 3 } });
    } finally {
      wall.mockRestore();
    }
  });
});
