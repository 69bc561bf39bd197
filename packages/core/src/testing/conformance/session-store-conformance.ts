import { randomUUID } from 'node:crypto';
import { LlmAgent } from '../../agents/llm-agent';
import { confirmationRequests } from '../../confirmation/confirmation-requests';
import { confirmationResponse } from '../../confirmation/confirmation-response';
import { ToolsmithError } from '../../errors/toolsmith-error';
import { Event, type EventInit } from '../../events/event';
import type { Content } from '../../model/content';
import { Runner } from '../../runner/runner';
import { Session } from '../../sessions/session';
import type { SessionService } from '../../sessions/session-service';
import type { StateOp } from '../../state/state-ops';
import { functionTool } from '../../function-tool/function-tool';
import { collect } from '../collect';
import { ScriptedModel } from '../scripted-model';
import { refundTool } from './conformance-tools';

/** Options of {@link runSessionStoreConformance}. */
export interface SessionStoreConformanceOptions {
  /** Names the suite, e.g. `postgres (pglite)`. */
  name: string;
  /**
   * Creates the store, once for the suite (`beforeAll`). Every test uses its own random app name, so
   * one store (one database) serves all of them.
   */
  create(): SessionService | Promise<SessionService>;
  /** Releases the store after the suite (`afterAll`), e.g. closes its connections. */
  close?(service: SessionService): void | Promise<void>;
}

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

/** A deferred promise: the way tests here wait for each other, never for time. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The code of a rejection (or `ok`), for comparing outcomes of racing writers. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return ToolsmithError.isInstance(error) ? error.code : `untyped: ${String(error)}`;
  }
}

/**
 * Declares the session-store conformance tests (jest) for one {@link SessionService}: the contract
 * every store keeps, run the same way against the in-memory store and the PostgreSQL ones. Cases:
 * state scopes (`app:`, `user:`, session, `temp:` never stored), deltas, ordering and sequence numbers,
 * partial event reads and paging, stale writers (`STALE_SESSION`, nothing stored), exactly-once answers
 * (`FUNCTION_RESPONSE_NOT_PENDING` for the loser), session claims (one at a time, growing fencing
 * numbers, lapsed claims free again, appends without the current claim refused with `SESSION_BUSY`),
 * shared state (plain writes last-writer-wins; increments from many racing sessions all counted;
 * of racing compare-and-sets exactly one stored, the others `STATE_CONFLICT`, through the store and a tool),
 * the JSON round trip of events and state, and the runner on the store: the confirmation resume in a
 * second runner (each of the four decisions: approve, edit, reject with a message, respond), a call interrupted by a dead runner reported as `TOOL_INTERRUPTED` instead of run
 * again, a slow but living runner waited for (or refused) and never reported interrupted, a compaction
 * event (docs/context.md) kept and continued from by a later runner.
 *
 * @example
 * ```ts
 * // packages/postgres/src/postgres-session-service.e2e.test.ts
 * runSessionStoreConformance({
 *   name: 'PostgresSessionService (PGlite, in memory)',
 *   create: () => PostgresSessionService.embedded(),
 *   close: (service) => (service as PostgresSessionService).close(),
 * });
 * ```
 */
export function runSessionStoreConformance(options: SessionStoreConformanceOptions): void {
  describe(`${options.name}: session store conformance`, () => {
    let service: SessionService;
    let appName: string;

    beforeAll(async () => {
      service = await options.create();
    });
    afterAll(async () => {
      if (service) await options.close?.(service);
    });
    beforeEach(() => {
      appName = `app-${randomUUID()}`;
    });

    const key = (sessionId = 's', userId = 'u') => ({ appName, userId, sessionId });
    const event = (init: Partial<EventInit> = {}) => Event.create({ invocationId: 'i', author: 'agent', ...init });
    const delta = (stateDelta: Record<string, unknown>) => ({ stateDelta, artifactDelta: {} });
    const answer = (id: string, extra: Record<string, unknown> = {}): Content => ({
      role: 'user',
      parts: [{ functionResponse: { id, name: 'toolsmith_request_confirmation', response: { confirmed: true }, ...extra } }],
    });

    it('applies the scope rules: app: for every user, user: for every session of a user, temp: never stored', async () => {
      const created = await service.createSession({ ...key(), state: { 'app:theme': 'dark', 'user:name': 'Ann', n: 1, 'temp:x': 1 } });
      expect(created.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ann', n: 1 });
      expect(created.lastSequence).toBe(0);
      const sibling = await service.createSession(key('s2'));
      const other = await service.createSession(key('s3', 'v'));

      expect((await service.getSession(key()))!.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ann', n: 1 });
      expect((await service.getSession(key('s2')))!.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ann' });
      expect(sibling.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ann' });
      expect(other.state).toEqual({ 'app:theme': 'dark' });
      await expect(service.createSession(key())).rejects.toMatchObject({ code: 'SESSION_EXISTS' });
      expect(await service.getSession(key('missing'))).toBeUndefined();
      expect(await service.getSession({ appName: `${appName}-other`, userId: 'u', sessionId: 's' })).toBeUndefined();
    });

    it('applies deltas on append to every scope (null deletes), updates the session in place and ignores partial events', async () => {
      const session = await service.createSession({ ...key(), state: { a: 1, b: 2, 'user:keep': true } });
      const stored = await service.appendEvent(session, event({ actions: delta({ a: null, c: { deep: [1, 'x'] }, 'user:n': 1, 'app:v': 2, 'temp:t': 3 }) }));
      await service.appendEvent(session, event({ partial: true, content: { role: 'model', parts: [{ text: 'par' }] } }));

      expect(stored.actions.stateDelta).toEqual({ a: null, c: { deep: [1, 'x'] }, 'user:n': 1, 'app:v': 2 });
      expect(session.state).toEqual({ b: 2, c: { deep: [1, 'x'] }, 'user:keep': true, 'user:n': 1, 'app:v': 2 });
      expect(session.lastSequence).toBe(1);
      const loaded = (await service.getSession(key()))!;
      expect(loaded.state).toEqual(session.state);
      expect(loaded.events).toHaveLength(1);
      expect(loaded.events[0].actions.stateDelta).not.toHaveProperty('temp:t');
      expect(loaded.lastSequence).toBe(1);
      expect((await service.createSession(key('s2'))).state).toEqual({ 'user:keep': true, 'user:n': 1, 'app:v': 2 });
      expect((await service.createSession(key('s3', 'v'))).state).toEqual({ 'app:v': 2 });

      await service.appendEvent(session, event({ actions: delta({ 'user:n': null, 'app:v': 3 }) }));
      expect((await service.getSession(key('s2')))!.state).toEqual({ 'user:keep': true, 'app:v': 3 });
    });

    it('numbers events 1, 2, … in append order and reads them back in that order', async () => {
      const session = await service.createSession(key());
      for (let i = 0; i < 30; i++) await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: `e${i}` }] }, timestamp: 1_000 + i }));
      expect(session.lastSequence).toBe(30);
      const loaded = (await service.getSession(key()))!;
      expect(loaded.events.map((e) => e.text())).toEqual(Array.from({ length: 30 }, (_, i) => `e${i}`));
      expect(loaded.lastSequence).toBe(30);
      expect(loaded.lastUpdateTime).toBe(1_029);
      for (const e of loaded.events) expect(e).toBeInstanceOf(Event);
    });

    it('reads the last N events and the events after a timestamp; state and sequence stay whole', async () => {
      const session = await service.createSession({ ...key(), state: { n: 1 } });
      for (let i = 0; i < 10; i++) await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: `e${i}` }] }, timestamp: 100 * (i + 1) }));
      const texts = (s: Session | undefined) => s!.events.map((e) => e.text());

      expect(texts(await service.getSession({ ...key(), numRecentEvents: 3 }))).toEqual(['e7', 'e8', 'e9']);
      expect(texts(await service.getSession({ ...key(), afterTimestamp: 800 }))).toEqual(['e7', 'e8', 'e9']);
      expect(texts(await service.getSession({ ...key(), afterTimestamp: 300, numRecentEvents: 2 }))).toEqual(['e8', 'e9']);
      expect(texts(await service.getSession({ ...key(), numRecentEvents: 0 }))).toEqual([]);
      const partial = (await service.getSession({ ...key(), numRecentEvents: 1 }))!;
      expect([partial.lastSequence, partial.state]).toEqual([10, { n: 1 }]);
    });

    it('lists a user\'s sessions by id without events, a page at a time', async () => {
      for (const id of ['c', 'a', 'e', 'b', 'd']) {
        const s = await service.createSession(key(id));
        await service.appendEvent(s, event({ content: { role: 'model', parts: [{ text: id }] } }));
      }
      await service.createSession(key('z', 'other-user'));

      const all = await service.listSessions({ appName, userId: 'u' });
      expect(all.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(all.every((s) => s.events.length === 0 && s.lastSequence === 1)).toBe(true);
      const first = await service.listSessions({ appName, userId: 'u', limit: 2 });
      const second = await service.listSessions({ appName, userId: 'u', limit: 2, after: first.at(-1)!.id });
      const third = await service.listSessions({ appName, userId: 'u', limit: 2, after: second.at(-1)!.id });
      expect([first, second, third].map((page) => page.map((s) => s.id))).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
      expect(await service.listSessions({ appName, userId: 'nobody' })).toEqual([]);
    });

    it('lists ids in UTF-16 code unit order (as JavaScript compares strings), also past characters above U+FFFF', async () => {
      // Code point order would put U+E000 and U+FFFD before the emoji (U+1F600); code unit order puts them after it (0xD83D).
      const ids = ['\uFFFD', 'b', '\u{1F600}x', '\uE000', 'a\u{1F600}', 'a\uFFFF', 'é'];
      for (const id of ids) await service.createSession(key(id));
      const expected = [...ids].sort();
      expect(expected).toEqual(['a\u{1F600}', 'a\uFFFF', 'b', 'é', '\u{1F600}x', '\uE000', '\uFFFD']);
      expect((await service.listSessions({ appName, userId: 'u' })).map((s) => s.id)).toEqual(expected);
      const pages: string[][] = [];
      let after: string | undefined;
      for (;;) {
        const page = await service.listSessions({ appName, userId: 'u', limit: 2, ...(after === undefined ? {} : { after }) });
        if (page.length === 0) break;
        pages.push(page.map((s) => s.id));
        after = page.at(-1)!.id;
      }
      expect(pages.flat()).toEqual(expected);
    });

    it('refuses ids no store keeps as given (a lone surrogate, a control character, not a string) in every method with INVALID_SESSION_REQUEST, reading and storing nothing', async () => {
      // '\uD800' and '\uDC00' would both be stored as U+FFFD by PostgreSQL: two users, one session.
      const session = await service.createSession({ ...key('s', 'u\uFFFD'), state: { 'user:secret': 'kept', 'app:n': 1 } });
      await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: 'x' }] } }));
      const refused = async (promise: Promise<unknown>, problem: RegExp) => {
        await expect(promise).rejects.toMatchObject({ code: 'INVALID_SESSION_REQUEST', problem: expect.stringMatching(problem) });
      };
      for (const [bad, problem] of [['u\uD800', /userId has a lone surrogate/], ['u\uDC00', /userId has a lone surrogate/], ['u\u0000', /userId has a control character/], [7, /userId is a number/]] as const) {
        const badKey = { appName, userId: bad as string, sessionId: 's' };
        await refused(service.createSession({ ...badKey, state: { 'user:secret': 'stolen' } }), problem);
        await refused(service.getSession(badKey), problem);
        await refused(service.listSessions({ appName, userId: bad as string }), problem);
        await refused(service.deleteSession(badKey), problem);
        await refused(service.appendEvent(new Session({ id: 's', appName, userId: bad as string }), event()), problem);
        await refused(service.claimSession({ ...badKey, holder: 'h', leaseMs: 1_000 }), problem);
        await refused(service.renewClaim(badKey, 1, 1_000), problem);
        await refused(service.releaseClaim(badKey, 1), problem);
      }
      await refused(service.createSession(key('s\uD800')), /sessionId has a lone surrogate/);
      await refused(service.createSession({ appName: `${appName}\uDFFF`, userId: 'u', sessionId: 's' }), /appName has a lone surrogate/);
      // Any other control character names one session in every store: a session stored before ids were checked can
      // still be read, listed past and deleted (a new one cannot be made or claimed).
      await refused(service.claimSession({ appName: `${appName}\u0085`, userId: 'u', sessionId: 's', holder: 'h', leaseMs: 1_000 }), /appName has a control character/);
      await expect(service.getSession({ appName: `${appName}\u0085`, userId: 'u', sessionId: 's' })).resolves.toBeUndefined();
      await expect(service.listSessions({ appName, userId: 'u\uFFFD', after: 'a\tb' })).resolves.toHaveLength(1);
      await expect(service.deleteSession({ appName, userId: 'u\uFFFD', sessionId: 'a\tb' })).resolves.toBeUndefined();
      await refused(service.listSessions({ appName, userId: 'u\uFFFD', after: '\uD800' }), /after has a lone surrogate/);
      // Nothing was read or stored: the session, its state and the other users are as they were.
      expect((await service.getSession(key('s', 'u\uFFFD')))!.state).toEqual({ 'user:secret': 'kept', 'app:n': 1 });
      expect((await service.listSessions({ appName, userId: 'u\uFFFD' })).map((s) => [s.id, s.lastSequence])).toEqual([['s', 1]]);
      // A pair is one character, not a lone surrogate.
      await expect(service.createSession(key('s', 'u\u{1F600}'))).resolves.toMatchObject({ userId: 'u\u{1F600}', state: { 'app:n': 1 } });
    });

    it('refuses to append an event it could not read back (INVALID_SESSION_REQUEST), storing nothing: the session stays readable', async () => {
      const session = await service.createSession(key());
      await service.appendEvent(session, event({ content: { role: 'user', parts: [{ text: 'precious history' }] } }));
      const malformed: Array<[Record<string, unknown>, RegExp]> = [
        [{ timestamp: 1.5 }, /timestamp is 1.5, not a whole number/],
        [{ timestamp: Number.NaN }, /timestamp is NaN, not a finite number|timestamp is a number, not a finite number/],
        [{ author: 5 }, /author is a number, not a string/],
        [{ id: 42 }, /id is a number, not a string/],
        [{ content: { role: 'model', parts: 'hi' } }, /content is not an object with an array of parts/],
        [{ content: { role: 'model' } }, /content is not an object with an array of parts/],
      ];
      for (const [fields, problem] of malformed) {
        const bad = Object.assign(event({ content: { role: 'model', parts: [{ text: 'x' }] } }), fields);
        await expect(service.appendEvent(session, bad)).rejects.toMatchObject({ code: 'INVALID_SESSION_REQUEST', problem: expect.stringMatching(problem) });
      }
      const stored = await service.getSession(key());
      expect(stored!.events.map((e) => e.text())).toEqual(['precious history']);
      expect(stored!.lastSequence).toBe(1);
    });

    it('refuses paging options, leases and fencing numbers it does not take with INVALID_SESSION_REQUEST, and answers the others alike', async () => {
      const session = await service.createSession(key());
      for (let i = 0; i < 3; i++) await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: `e${i}` }] }, timestamp: 1_000 + i }));
      for (const id of ['b', 'c']) await service.createSession(key(id));
      const refused = async (promise: Promise<unknown>, problem: RegExp) => {
        await expect(promise).rejects.toMatchObject({ code: 'INVALID_SESSION_REQUEST', problem: expect.stringMatching(problem) });
      };
      for (const numRecentEvents of [-1, 1.5, NaN, Infinity, null, '2']) {
        await refused(service.getSession({ ...key(), numRecentEvents: numRecentEvents as number }), /^numRecentEvents is .*, not a whole number, 0 or more$/);
      }
      for (const afterTimestamp of [NaN, -Infinity, Infinity, null, '1001']) {
        await refused(service.getSession({ ...key(), afterTimestamp: afterTimestamp as number }), /^afterTimestamp is .*, not a finite number/);
      }
      for (const limit of [-1, 1.5, NaN, Infinity, null, '2']) {
        await refused(service.listSessions({ appName, userId: 'u', limit: limit as number }), /^limit is .*, not a whole number, 0 or more$/);
      }
      await refused(service.listSessions({ appName, userId: 'u', after: null as unknown as string }), /^after is null, not a string$/);
      for (const leaseMs of [-1, 1.5, NaN, Infinity, 1e300, 3 * (2 ** 31 - 1) + 1, null]) {
        await refused(service.claimSession({ ...key(), holder: 'h', leaseMs: leaseMs as number }), /^leaseMs is .*, not a whole number of milliseconds from 0 to 6442450941$/);
        await refused(service.renewClaim(key(), 1, leaseMs as number), /^leaseMs is /);
      }
      for (const fence of [0, 1.5, NaN, null]) {
        await refused(service.renewClaim(key(), fence as number, 1_000), /^fence is /);
        await refused(service.releaseClaim(key(), fence as number), /^fence is /);
      }
      const texts = (s: Session | undefined) => s!.events.map((e) => e.text());
      // What is taken reads the same in every store: a fractional time compares exactly, a long lease is a lease.
      expect(texts(await service.getSession({ ...key(), afterTimestamp: 1_000.5 }))).toEqual(['e1', 'e2']);
      expect(texts(await service.getSession({ ...key(), afterTimestamp: -1e300 }))).toEqual(['e0', 'e1', 'e2']);
      expect(texts(await service.getSession({ ...key(), afterTimestamp: 2 ** 70 }))).toEqual([]);
      expect(texts(await service.getSession({ ...key(), numRecentEvents: 2 ** 40 }))).toEqual(['e0', 'e1', 'e2']);
      expect((await service.listSessions({ appName, userId: 'u', limit: 2 ** 40, after: '' })).map((s) => s.id)).toEqual(['b', 'c', 's']);
      expect((await service.listSessions({ appName, userId: 'u', limit: 0 })).map((s) => s.id)).toEqual([]);
      const claimed = await service.claimSession({ ...key(), holder: 'h', leaseMs: 3 * (2 ** 31 - 1) });
      expect(claimed.claimed).toBe(true);
      if (claimed.claimed) {
        await expect(service.renewClaim(key(), claimed.claim.fence, 3 * (2 ** 31 - 1))).resolves.toBe(true);
        await service.releaseClaim(key(), claimed.claim.fence);
      }
    });

    it('reads an appended delta once: a getter in it gives the stored event, the session and the store one value', async () => {
      const session = await service.createSession(key());
      let reads = 0;
      const stateDelta: Record<string, unknown> = { plain: 'p' };
      for (const name of ['k', 'user:k', 'app:k']) Object.defineProperty(stateDelta, name, { enumerable: true, get: () => ++reads });
      const stored = await service.appendEvent(session, event({ actions: delta(stateDelta) }));
      expect(reads).toBe(3);
      const values = { plain: 'p', k: 1, 'user:k': 2, 'app:k': 3 };
      expect({ ...stored.actions.stateDelta }).toEqual(values);
      expect(session.state).toEqual(values);
      const loaded = (await service.getSession(key()))!;
      expect([loaded.state, { ...loaded.events[0].actions.stateDelta }]).toEqual([values, values]);
    });

    it('refuses state values no store can keep (the NUL character, a lone surrogate) when the tool writes them, and the run goes on', async () => {
      const note = functionTool({
        name: 'note',
        description: 'Writes a note.',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        execute: ({ text }: { text: string }, ctx) => {
          ctx.state.set('user:note', { text });
          return { noted: true };
        },
      });
      const script = ['a\u0000b', '\uD83D alone', 'fine \u{1F600}'].flatMap((text, i) => [{ calls: [{ id: `n${i}`, name: 'note', args: { text } }] }, `done ${i}`]);
      const runner = new Runner({ appName, agent: new LlmAgent({ name: 'scribe', model: new ScriptedModel(script), tools: [note] }), sessionService: service });
      const responses = [];
      for (let i = 0; i < 3; i++) {
        const events = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user(`note ${i}`) }));
        expect(events.at(-1)!.text()).toBe(`done ${i}`);
        responses.push(events.flatMap((e) => e.functionResponses())[0]);
      }
      expect(responses.map((r) => r.isError ?? false)).toEqual([true, true, false]);
      expect(JSON.stringify(responses[0].response)).toContain('INVALID_STATE_VALUE');
      expect(JSON.stringify(responses[1].response)).toContain('lone surrogate');
      expect((await service.getSession(key()))!.state).toEqual({ 'user:note': { text: 'fine \u{1F600}' } });
    });

    it('deletes a session with its events; app: and user: state stay; the id can be used again', async () => {
      const session = await service.createSession({ ...key(), state: { 'user:u': 1, 'app:a': 1, own: 1 } });
      await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: 'x' }] } }));
      await service.appendEvent(session, event({ author: 'user', content: answer('r1') }));
      await service.deleteSession(key());
      await service.deleteSession(key()); // nothing to delete: no error

      expect(await service.getSession(key())).toBeUndefined();
      expect(await service.listSessions({ appName, userId: 'u' })).toEqual([]);
      await expect(service.appendEvent(session, event())).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
      const again = await service.createSession(key());
      expect([again.state, again.lastSequence, (await service.getSession(key()))!.events]).toEqual([{ 'user:u': 1, 'app:a': 1 }, 0, []]);
      // The answer claims went with the deleted session.
      await expect(service.appendEvent(again, event({ author: 'user', content: answer('r1') }))).resolves.toBeInstanceOf(Event);
    });

    it('refuses to append to a session it does not hold', async () => {
      const ghost = new Session({ id: 'ghost', appName, userId: 'u' });
      await expect(service.appendEvent(ghost, event())).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    });

    it('refuses a stale writer with STALE_SESSION (both sequence numbers) and stores nothing of it, in any scope', async () => {
      const first = await service.createSession({ ...key(), state: { n: 0 } });
      const second = (await service.getSession(key()))!;
      await service.appendEvent(first, event({ author: 'a', actions: delta({ n: 1 }) }));

      const stale = service.appendEvent(second, event({ author: 'b', actions: delta({ n: 99, 'user:x': 1, 'app:y': 1 }) }));
      await expect(stale).rejects.toMatchObject({ code: 'STALE_SESSION', sessionId: 's', expectedSequence: 0, actualSequence: 1 });

      const stored = (await service.getSession(key()))!;
      expect(stored.events.map((e) => e.author)).toEqual(['a']);
      expect([stored.state, stored.lastSequence]).toEqual([{ n: 1 }, 1]);
      expect([second.lastSequence, second.events.length, second.state]).toEqual([0, 0, { n: 0 }]);
      expect((await service.createSession(key('s2'))).state).toEqual({});
    });

    it('lets exactly one of many writers holding the same sequence append; the others get STALE_SESSION', async () => {
      await service.createSession(key());
      const copies = await Promise.all(Array.from({ length: 8 }, () => service.getSession(key())));
      const results = await Promise.all(copies.map((copy, i) => outcome(service.appendEvent(copy!, event({ author: `w${i}`, actions: delta({ 'user:count': i }) })))));

      expect(results.filter((r) => r === 'ok')).toHaveLength(1);
      expect(results.filter((r) => r === 'STALE_SESSION')).toHaveLength(7);
      const stored = (await service.getSession(key()))!;
      const winner = results.indexOf('ok');
      expect(stored.events.map((e) => e.author)).toEqual([`w${winner}`]);
      expect([stored.lastSequence, stored.state['user:count']]).toEqual([1, winner]);
    });

    it('claims an answer once: of two writers answering the same call, the loser gets FUNCTION_RESPONSE_NOT_PENDING and nothing is stored', async () => {
      await service.createSession(key());
      const [a, b] = await Promise.all([service.getSession(key()), service.getSession(key())]);
      const results = await Promise.all([a!, b!].map((copy) => outcome(service.appendEvent(copy, event({ author: 'user', content: answer('confirm-1') })))));
      expect(results.sort()).toEqual(['FUNCTION_RESPONSE_NOT_PENDING', 'ok']);

      // A writer at the current sequence still cannot answer it again.
      const current = (await service.getSession(key()))!;
      await expect(service.appendEvent(current, event({ author: 'user', content: answer('confirm-1') }))).rejects.toMatchObject({
        code: 'FUNCTION_RESPONSE_NOT_PENDING',
        functionCallId: 'confirm-1',
        reason: 'answered',
      });
      expect((await service.getSession(key()))!.events).toHaveLength(1);
      expect(current.lastSequence).toBe(1);
    });

    it('lets a long-running call take many intermediate updates and one final answer; agent events claim nothing', async () => {
      const session = await service.createSession(key());
      const update = (willContinue?: boolean) => event({ author: 'user', content: { role: 'user', parts: [{ functionResponse: { id: 'job', name: 'export', response: { p: 1 }, ...(willContinue ? { willContinue } : {}) } }] } });
      await service.appendEvent(session, event({ content: { role: 'user', parts: [{ functionResponse: { id: 'job', name: 'export', response: { started: true } } }] } }));
      await service.appendEvent(session, update(true));
      await service.appendEvent(session, update(true));
      await service.appendEvent(session, update());
      await expect(service.appendEvent(session, update())).rejects.toMatchObject({ code: 'FUNCTION_RESPONSE_NOT_PENDING' });
      expect(session.lastSequence).toBe(4);
    });

    it('round-trips events and state through JSON exactly', async () => {
      const state = { text: 'héllo "quoted" \\ back\nslash 😀', num: 0.1, big: 2 ** 53 - 1, neg: -3.5e-7, yes: true, list: [1, null, { a: [] }], nested: { deep: { deeper: { x: 'y' } } }, empty: {} };
      const session = await service.createSession({ ...key(), state });
      const full = event({
        author: 'bot',
        branch: 'root.bot',
        content: {
          role: 'model',
          parts: [
            { text: 'thinking', thought: true, providerData: { provider: 'anthropic', data: { signature: 'abc=' } } },
            { text: 'Über 東京' },
            { functionCall: { id: 'c1', name: 't', args: { z: 1, a: { m: [true, false] } } } },
            { functionCall: { id: 'c2', name: 't', args: '{"raw": "json text"}' } },
          ],
        },
        actions: { stateDelta: { more: [1, 2] }, artifactDelta: { 'f.txt': 2 }, transferToAgent: 'other', requestedToolConfirmations: { c1: { confirmed: false, hint: 'ok?', payload: { p: 1 } } } },
        longRunningToolIds: ['c2'],
        turnComplete: true,
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: { inputTokens: 10, outputTokens: 5 },
        timestamp: 1_700_000_000_123,
      });
      const error = event({ errorCode: 'RUN_ABORTED', errorMessage: 'stopped', timestamp: 1_700_000_000_124 });
      await service.appendEvent(session, full);
      await service.appendEvent(session, error);

      const loaded = (await service.getSession(key()))!;
      expect(loaded.events.map((e) => e.toJSON())).toEqual([full.toJSON(), error.toJSON()]);
      expect(loaded.events[0].functionCalls().map((c) => c.args)).toEqual([{ z: 1, a: { m: [true, false] } }, '{"raw": "json text"}']);
      expect(Object.keys(loaded.events[0].functionCalls()[0].args)).toEqual(['z', 'a']);
      expect(loaded.state).toEqual({ ...state, more: [1, 2] });
      expect(Session.fromJSON(JSON.parse(JSON.stringify(loaded))).toJSON()).toEqual(loaded.toJSON());
    });

    describe('a model response that is not plain JSON data is refused as INVALID_MODEL_RESPONSE and nothing of it is stored', () => {
      const cycle: Record<string, unknown> = { text: 'loop' };
      cycle.self = cycle;
      const bad: Array<[string, () => unknown]> = [
        ['a BigInt', () => ({ content: { role: 'model', parts: [{ text: 'hi', extra: 10n }] } })],
        ['a cycle', () => ({ content: { role: 'model', parts: [cycle] } })],
        ['a Date', () => ({ content: { role: 'model', parts: [{ text: 'then', when: new Date(0) }] } })],
        ['an own toJSON', () => ({ content: { role: 'model', parts: [{ text: 'real', toJSON: () => ({ text: 'fake' }) }] } })],
        ['a BigInt count', () => ({ content: { role: 'model', parts: [{ text: 'hi' }] }, usage: { inputTokens: 1n } })],
        ['NaN', () => ({ content: { role: 'model', parts: [{ text: 'hi', extra: NaN }] } })],
        ['an Infinity nested in a list', () => ({ content: { role: 'model', parts: [{ text: 'hi', extra: { list: [1, -Infinity] } }] } })],
      ];
      const paths: Array<['the model' | 'beforeModel']> = [['the model'], ['beforeModel']];
      describe.each(paths)('returned by %s', (path) => {
        it.each(bad)('%s', async (_, response) => {
          let calls = 0;
          const model = {
            provider: 'raw',
            modelName: 'raw',
            async *generate() {
              calls++;
              yield (path === 'the model' && calls === 1 ? response() : { content: { role: 'model', parts: [{ text: 'fine' }] } }) as never;
            },
          };
          const callbacks = path === 'beforeModel' ? { beforeModel: () => (calls === 0 ? (response() as never) : undefined) } : {};
          const runner = new Runner({ appName, agent: new LlmAgent({ name: 'bot', model, callbacks }), sessionService: service });
          const run = (text: string) => collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user(text) }));

          const events = await run('go');
          expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_RESPONSE']);
          const stored = (await service.getSession(key()))!;
          expect(stored.events.map((e) => [e.author, e.content, e.errorCode])).toEqual([
            ['user', user('go'), undefined],
            ['bot', undefined, 'INVALID_MODEL_RESPONSE'],
          ]);
          expect(() => JSON.stringify(stored)).not.toThrow();
          // The session stays usable.
          if (path === 'beforeModel') calls = 1;
          expect((await run('again')).map((e) => e.text())).toEqual(['fine']);
        });
      });
    });

    it('stores a copy of the model response: a model that changes its response object later changes nothing stored', async () => {
      const shared = { content: { role: 'model', parts: [{ text: 'first answer' }] as Array<Record<string, unknown>> }, usage: { inputTokens: 3, outputTokens: 2 } };
      const model = {
        provider: 'raw',
        modelName: 'raw',
        async *generate() {
          yield shared as never;
        },
      };
      const runner = new Runner({ appName, agent: new LlmAgent({ name: 'bot', model }), sessionService: service });
      const events = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('q') }));
      shared.content.parts[0].text = 'CHANGED';
      shared.content.parts.push({ functionCall: { id: 'c1', name: 'evil', args: {} } });
      shared.usage.inputTokens = 1000;
      const stored = (await service.getSession(key()))!;
      for (const event of [events[0], stored.events[1]]) {
        expect(event.content).toEqual({ role: 'model', parts: [{ text: 'first answer' }] });
        expect(event.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
      }
    });

    it('keeps state keys named like Object.prototype members (__proto__, constructor, hasOwnProperty, …) as keys, in every scope, through tools, updates in the append, later runs and JSON', async () => {
      // JSON.parse makes "__proto__" an own key, as a store's JSON does; an object literal would set the prototype.
      const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
      const seen: Array<Record<string, unknown>> = [];
      const write = functionTool({
        name: 'write',
        description: 'Writes.',
        execute: (_args, ctx) => {
          ctx.state.set('__proto__', 1);
          ctx.state.set('hasOwnProperty', 'h');
          ctx.state.set('app:__proto__', 2);
          ctx.state.set('user:constructor', 3);
          ctx.state.set('temp:__proto__', 4);
          ctx.state.set('nested', json('{"__proto__":{"a":1}}'));
          return { read: ctx.state.get('__proto__') ?? 'lost', has: ctx.state.has('__proto__') };
        },
      });
      const update = functionTool({
        name: 'update',
        description: 'Updates.',
        execute: (_args, ctx) => {
          ctx.state.set('propertyIsEnumerable', 'p');
          return { n: ctx.state.increment('constructor'), set: ctx.state.compareAndSet('toString', undefined, 't') };
        },
      });
      const read = functionTool({
        name: 'read',
        description: 'Reads.',
        execute: (_args, ctx) => {
          seen.push({ ...ctx.state.toObject(), unset: [ctx.state.get('valueOf') ?? null, ctx.state.has('isPrototypeOf')] });
          return { n: ctx.state.increment('constructor'), p: ctx.state.increment('__proto__'), swapped: ctx.state.compareAndSet('hasOwnProperty', 'h', 'h2') };
        },
      });
      const model = new ScriptedModel([{ calls: [{ id: 'w', name: 'write', args: {} }, { id: 'u', name: 'update', args: {} }] }, { calls: [{ id: 'r', name: 'read', args: {} }] }, 'done', { calls: [{ id: 'r2', name: 'read', args: {} }] }, 'again']);
      const runner = new Runner({ appName, agent: new LlmAgent({ name: 'bot', model, tools: [write, update, read] }), sessionService: service });
      await service.createSession({ ...key(), state: json('{"app:constructor":"a","isPrototypeOf":null}') });

      const first = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
      const responses = first.flatMap((e) => e.functionResponses()).map((r) => [r.id, r.response]);
      expect(responses).toEqual([['w', { read: 1, has: true }], ['u', { n: 1, set: true }], ['r', { n: 2, p: 2, swapped: true }]]);
      const written = '"app:constructor":"a","app:__proto__":2,"user:constructor":3,"propertyIsEnumerable":"p","toString":"t","nested":{"__proto__":{"a":1}}';
      expect(seen[0]).toEqual({ ...json(`{${written},"__proto__":1,"hasOwnProperty":"h","constructor":1,"temp:__proto__":4}`), unset: [null, false] });
      const stored = json(`{${written},"__proto__":2,"hasOwnProperty":"h2","constructor":2}`);
      const loaded = (await service.getSession(key()))!;
      expect(loaded.state).toEqual(stored);
      expect(Object.getPrototypeOf(loaded.state)).toBe(Object.prototype);
      expect(Session.fromJSON(JSON.parse(JSON.stringify(loaded)) as ReturnType<Session['toJSON']>).state).toEqual(stored);
      const [step, next] = loaded.events.filter((e) => e.functionResponses().length > 0);
      expect(step.actions.stateDelta).toEqual(json('{"__proto__":1,"hasOwnProperty":"h","app:__proto__":2,"user:constructor":3,"nested":{"__proto__":{"a":1}},"propertyIsEnumerable":"p","constructor":1,"toString":"t"}'));
      expect(step.actions.stateOps).toEqual({ constructor: { op: 'increment', by: 1 }, toString: { op: 'compareAndSet', expected: null } });
      expect(next.actions.stateDelta).toEqual(json('{"constructor":2,"__proto__":2,"hasOwnProperty":"h2"}'));
      expect((await service.createSession(key('s2'))).state).toEqual(json('{"app:constructor":"a","app:__proto__":2,"user:constructor":3}'));

      // A later run reads them from the store (its snapshot), and updates them there again.
      await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('again') }));
      expect(seen[1]).toEqual({ ...stored, unset: [null, false] });
      const again = (await service.getSession(key()))!;
      expect(again.state).toEqual({ ...stored, ...json('{"constructor":3,"__proto__":3}') });

      // An increment the store applies to the value it holds (3), not to the one the writer read (0).
      const stale = event({ actions: { stateDelta: json('{"__proto__":1}'), stateOps: json('{"__proto__":{"op":"increment","by":1}}') as Record<string, StateOp>, artifactDelta: {} } });
      expect((await service.appendEvent(again, stale)).actions.stateDelta).toEqual(json('{"__proto__":4}'));
      expect((await service.getSession(key()))!.state).toEqual({ ...stored, ...json('{"constructor":3,"__proto__":4}') });
    });

    it('keeps a compaction event with its summary, and a runner reading the session later continues from the summary', async () => {
      const runnerFor = (model: ScriptedModel, summarizer: ScriptedModel) =>
        new Runner({ appName, sessionService: service, agent: new LlmAgent({ name: 'clerk', model, compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: summarizer } }) });
      const send = (runner: Runner, text: string) => collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user(text) }));
      const first = runnerFor(new ScriptedModel(['A1', 'A2']), new ScriptedModel(['Q1 was asked, A1 answered.']));
      await send(first, 'Q1');
      const compaction = (await send(first, 'Q2'))[0].actions.compaction!;
      expect(compaction.summary).toBe('Q1 was asked, A1 answered.');

      const stored = (await service.getSession(key()))!.events;
      expect(stored.map((e) => e.text() || (e.actions.compaction ? 'compaction' : ''))).toEqual(['Q1', 'A1', 'Q2', 'compaction', 'A2']); // the history stays whole
      expect(stored[3].actions.compaction).toEqual(compaction);
      expect(stored[3].content).toBeUndefined();

      const model = new ScriptedModel(['A3']);
      await send(runnerFor(model, new ScriptedModel([])), 'Q3');
      const sent = model.requests[0].contents.flatMap((content) => content.parts.map((part) => part.text));
      expect(sent).toEqual(['Summary of the earlier conversation:\nQ1 was asked, A1 answered.', 'Q2', 'A2', 'Q3']);
    });

    it('resumes a confirmation in another runner, runs the tool once, and refuses a second answer', async () => {
      const refunds: number[] = [];
      const refund = refundTool(refunds);
      const runnerWith = (script: ConstructorParameters<typeof ScriptedModel>[0]) =>
        new Runner({ appName, agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [refund] }), sessionService: service });
      const run = (runner: Runner, newMessage: Content) => collect(runner.run({ userId: 'u', sessionId: 's', newMessage }));

      const paused = await run(runnerWith([{ calls: [{ id: 'call-1', name: 'refund', args: { amount: 250 } }] }]), user('refund 250'));
      const [request] = confirmationRequests(paused.at(-1)!);
      expect(refunds).toEqual([]);

      // Two more runners (two other processes) answer the same request at the same moment.
      const answerMessage = confirmationResponse(request, { confirmed: true });
      const [first, second] = await Promise.all([run(runnerWith(['Refunded 250.']), answerMessage), run(runnerWith(['Refunded 250.']), answerMessage)]);

      expect(refunds).toEqual([250]);
      expect([first, second].map((events) => events.at(-1)!.errorCode ?? events.at(-1)!.text()).sort()).toEqual(['FUNCTION_RESPONSE_NOT_PENDING', 'Refunded 250.']);
      const again = await run(runnerWith(['never']), answerMessage);
      expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
      expect(refunds).toEqual([250]);
      const stored = (await service.getSession(key()))!;
      const responses = stored.events.flatMap((e) => e.functionResponses()).filter((r) => r.id === 'call-1');
      expect(responses).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 250 } }]);
    });

    it('resumes each of the four decisions in another runner: an edit runs once with its arguments (a second answer is refused), a rejection and a response run nothing', async () => {
      const refunds: number[] = [];
      const refund = refundTool(refunds);
      const runnerWith = (script: ConstructorParameters<typeof ScriptedModel>[0]) =>
        new Runner({ appName, agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [refund] }), sessionService: service });
      const run = (runner: Runner, newMessage: Content, sessionId: string) => collect(runner.run({ userId: 'u', sessionId, newMessage }));
      const pause = async (sessionId: string) => {
        const paused = await run(runnerWith([{ calls: [{ id: 'call-1', name: 'refund', args: { amount: 250 } }] }]), user('refund 250'), sessionId);
        return confirmationRequests(paused.at(-1)!)[0];
      };
      const responseOf = async (sessionId: string) => (await service.getSession(key(sessionId)))!.events.flatMap((e) => e.functionResponses()).filter((r) => r.id === 'call-1');

      // An edit the schema refuses stores nothing; the edit that follows runs once, in another runner; a second answer is refused.
      const editRequest = await pause('edit');
      const stored = (await service.getSession(key('edit')))!.events.length;
      const invalid = await run(runnerWith(['never']), confirmationResponse(editRequest, { decision: 'edit', args: { amount: -5 } }), 'edit');
      expect(invalid.map((e) => e.errorCode)).toEqual(['CONFIRMATION_EDIT_INVALID']);
      expect((await service.getSession(key('edit')))!.events).toHaveLength(stored);
      const edit = confirmationResponse(editRequest, { decision: 'edit', args: { amount: 100 } });
      const [first, second] = await Promise.all([run(runnerWith(['Refunded 100.']), edit, 'edit'), run(runnerWith(['Refunded 100.']), edit, 'edit')]);
      expect([first, second].map((events) => events.at(-1)!.errorCode ?? events.at(-1)!.text()).sort()).toEqual(['FUNCTION_RESPONSE_NOT_PENDING', 'Refunded 100.']);
      expect(refunds).toEqual([100]);
      expect(await responseOf('edit')).toEqual([
        {
          id: 'call-1',
          name: 'refund',
          response: { result: { refunded: 100 }, argumentsEditedByUser: { amount: 100 } },
          confirmation: { decision: 'edit', by: 'user', args: { amount: 100 } },
        },
      ]);

      const rejectRequest = await pause('reject');
      await run(runnerWith(['Not refunded.']), confirmationResponse(rejectRequest, { decision: 'reject', message: 'Only 100, please.' }), 'reject');
      expect(await responseOf('reject')).toEqual([
        {
          id: 'call-1',
          name: 'refund',
          isError: true,
          response: { error: { code: 'TOOL_CALL_REJECTED', message: 'The user rejected the call and said: "Only 100, please.". Do not retry it unless the user asks.' } },
          confirmation: { decision: 'reject', by: 'user', message: 'Only 100, please.' },
        },
      ]);

      const respondRequest = await pause('respond');
      await run(runnerWith(['Done by hand.']), confirmationResponse(respondRequest, { decision: 'respond', result: { refunded: 0, note: 'done by hand' } }), 'respond');
      expect(await responseOf('respond')).toEqual([
        { id: 'call-1', name: 'refund', response: { refunded: 0, note: 'done by hand' }, confirmation: { decision: 'respond', by: 'user' } },
      ]);
      expect(refunds).toEqual([100]);
    });

    it('reports a call whose runner died inside the tool as TOOL_INTERRUPTED once its claim lapsed, and does not run it again', async () => {
      let runs = 0;
      const charge = functionTool({
        name: 'charge',
        description: 'Charges the card.',
        execute: () => {
          runs++;
          return { charged: true };
        },
      });
      // What a process that died inside the tool left: its claim (lapsed: a lease of 0 ms), the user's
      // message and the model's call, and no result.
      const dead = await service.claimSession({ ...key(), holder: 'dead-run', leaseMs: 0 });
      if (!dead.claimed) throw new Error('the first claim of a new session must be granted');
      const session = await service.createSession(key());
      session.fence = dead.claim.fence;
      await service.appendEvent(session, event({ invocationId: 'dead', author: 'user', content: user('charge me') }));
      await service.appendEvent(session, event({ invocationId: 'dead', author: 'bot', content: { role: 'model', parts: [{ functionCall: { id: 'c-1', name: 'charge', args: {} } }] } }));

      const model = new ScriptedModel(['The charge may not have gone through; let me check.']);
      const next = new Runner({ appName, agent: new LlmAgent({ name: 'bot', model, tools: [charge] }), sessionService: service, sessionClaim: { onBusy: 'fail' } });
      const events = await collect(next.run({ userId: 'u', sessionId: 's', newMessage: user('did it work?') }));

      expect(runs).toBe(0);
      expect(events[0].author).toBe('bot');
      expect(events[0].functionResponses()).toEqual([
        expect.objectContaining({ id: 'c-1', name: 'charge', isError: true, response: { error: expect.objectContaining({ code: 'TOOL_INTERRUPTED' }) } }),
      ]);
      expect(events.at(-1)!.text()).toContain('may not have gone through');
      // The model saw the call answered (interrupted), then the user's question.
      const contents = model.requests[0].contents;
      expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'user']);
      expect(contents[2].parts[0].functionResponse).toMatchObject({ id: 'c-1', isError: true });

      // Were the old holder alive after all, its late result carries a superseded claim: refused, nothing stored.
      const late = event({ invocationId: 'dead', author: 'bot', content: { role: 'user', parts: [{ functionResponse: { id: 'c-1', name: 'charge', response: { charged: true } } }] } });
      await expect(service.appendEvent(session, late)).rejects.toMatchObject({ code: 'SESSION_BUSY' });
      const stored = (await service.getSession(key()))!;
      expect(stored.events.flatMap((e) => e.functionResponses()).map((r) => [r.id, r.isError])).toEqual([['c-1', true]]);
      expect(stored.events.map((e) => e.author)).toEqual(['user', 'bot', 'bot', 'user', 'bot']);
    });

    it('never takes a slow but living run for a dead one: another runner waits for it (default) or is refused with SESSION_BUSY, storing nothing', async () => {
      let runs = 0;
      const inside = deferred();
      const finish = deferred<object>();
      const charge = functionTool({
        name: 'charge',
        description: 'Charges the card.',
        execute: () => {
          runs++;
          inside.resolve();
          return finish.promise;
        },
      });
      const runnerWith = (script: ConstructorParameters<typeof ScriptedModel>[0], onBusy: 'wait' | 'fail') =>
        new Runner({ appName, agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(script), tools: [charge] }), sessionService: service, sessionClaim: { onBusy } });

      const slow = collect(runnerWith([{ calls: [{ id: 'c-1', name: 'charge', args: {} }] }, 'Charged.'], 'wait').run({ userId: 'u', sessionId: 's', newMessage: user('charge me') }));
      await inside.promise;
      const refused = await collect(runnerWith(['never'], 'fail').run({ userId: 'u', sessionId: 's', newMessage: user('hello?') }));
      expect(refused.map((e) => e.errorCode)).toEqual(['SESSION_BUSY']);
      expect(refused[0].errorMessage).toContain('held by another run');
      const waiting = collect(runnerWith(['Yes, it went through.'], 'wait').run({ userId: 'u', sessionId: 's', newMessage: user('did it work?') }));
      finish.resolve({ charged: true });

      expect((await slow).at(-1)!.text()).toBe('Charged.');
      expect((await waiting).map((e) => e.errorCode ?? e.text())).toEqual(['Yes, it went through.']);
      expect(runs).toBe(1);
      const stored = (await service.getSession(key()))!;
      expect(stored.events.map((e) => e.text() || e.functionCalls().map((c) => c.id).join() || e.functionResponses().map((r) => (r.isError ? 'error' : 'ok')).join())).toEqual([
        'charge me', 'c-1', 'ok', 'Charged.', 'did it work?', 'Yes, it went through.',
      ]);
    });

    it('grants one claim at a time, with growing fencing numbers; lapsed claims are free again', async () => {
      const first = await service.claimSession({ ...key(), holder: 'run-1', leaseMs: 60_000 });
      expect(first).toMatchObject({ claimed: true });
      if (!first.claimed) return;
      expect(await service.claimSession({ ...key(), holder: 'run-2', leaseMs: 60_000 })).toMatchObject({ claimed: false, holder: 'run-1' });
      expect(await service.claimSession({ ...key(), holder: 'run-1', leaseMs: 60_000 })).toMatchObject({ claimed: false, holder: 'run-1' });
      expect(await service.claimSession({ ...key('other'), holder: 'run-2', leaseMs: 60_000 })).toMatchObject({ claimed: true });
      expect(await service.renewClaim(key(), first.claim.fence, 60_000)).toBe(true);

      await service.releaseClaim(key(), first.claim.fence);
      const second = await service.claimSession({ ...key(), holder: 'run-2', leaseMs: 0 }); // lapses at once
      expect(second).toMatchObject({ claimed: true });
      if (!second.claimed) return;
      expect(second.claim.fence).toBeGreaterThan(first.claim.fence);
      expect(await service.renewClaim(key(), first.claim.fence, 60_000)).toBe(false);
      await service.releaseClaim(key(), first.claim.fence); // an old holder's release changes nothing
      const third = await service.claimSession({ ...key(), holder: 'run-3', leaseMs: 60_000 });
      expect(third).toMatchObject({ claimed: true });
      if (!third.claimed) return;
      expect(third.claim.fence).toBeGreaterThan(second.claim.fence);
      expect(await service.renewClaim(key(), second.claim.fence, 60_000)).toBe(false);
      await service.releaseClaim(key(), third.claim.fence);
    });

    it('refuses appends that do not carry the current claim with SESSION_BUSY, and stores nothing of them', async () => {
      const session = await service.createSession({ ...key(), state: { n: 0 } });
      const first = await service.claimSession({ ...key(), holder: 'run-1', leaseMs: 60_000 });
      if (!first.claimed) throw new Error('not claimed');
      // No claim carried while another run holds the session.
      await expect(service.appendEvent(session, event({ actions: delta({ n: 1, 'user:x': 1 }) }))).rejects.toMatchObject({ code: 'SESSION_BUSY', holder: 'run-1' });
      session.fence = first.claim.fence;
      await service.appendEvent(session, event({ author: 'one', actions: delta({ n: 1 }) }));

      // The claim lapses and another run claims the session: the first holder's appends are refused.
      await service.renewClaim(key(), first.claim.fence, 0);
      const second = await service.claimSession({ ...key(), holder: 'run-2', leaseMs: 60_000 });
      if (!second.claimed) throw new Error('not claimed');
      await expect(service.appendEvent(session, event({ author: 'late', actions: delta({ n: 99, 'app:y': 1 }) }))).rejects.toMatchObject({ code: 'SESSION_BUSY', holder: 'run-2' });
      await service.releaseClaim(key(), second.claim.fence);
      await expect(service.appendEvent(session, event({ author: 'late' }))).rejects.toMatchObject({ code: 'SESSION_BUSY' });

      // Released: a writer without a claim may append again (the sequence check still applies).
      const plain = (await service.getSession(key()))!;
      await service.appendEvent(plain, event({ author: 'plain' }));
      const stored = (await service.getSession(key()))!;
      expect(stored.events.map((e) => e.author)).toEqual(['one', 'plain']);
      expect(stored.state).toEqual({ n: 1 });
      expect((await service.createSession(key('s2'))).state).toEqual({});
    });

    it('applies no state update (increment, compare-and-set) of an append it refuses, whatever the reason', async () => {
      const updates = () => ({
        stateDelta: { n: 1, 'user:n': 1, 'app:n': 1, 'app:seat': 'taken' },
        artifactDelta: {},
        stateOps: {
          n: { op: 'increment' as const, by: 1 },
          'user:n': { op: 'increment' as const, by: 1 },
          'app:n': { op: 'increment' as const, by: 1 },
          'app:seat': { op: 'compareAndSet' as const, expected: null },
        },
      });
      const refused: string[] = [];
      const attempt = async (session: Session, init: Partial<EventInit> = {}) => refused.push(await outcome(service.appendEvent(session, event({ ...init, actions: updates() }))));

      // Not the current claim: SESSION_BUSY.
      const busy = await service.createSession(key('busy'));
      const claim = await service.claimSession({ ...key('busy'), holder: 'run-1', leaseMs: 60_000 });
      if (!claim.claimed) throw new Error('not claimed');
      await attempt(busy);
      await service.releaseClaim(key('busy'), claim.claim.fence);
      // A stale sequence: STALE_SESSION.
      const fresh = await service.createSession(key('stale'));
      const stale = (await service.getSession(key('stale')))!;
      await service.appendEvent(fresh, event({ author: 'a' }));
      await attempt(stale);
      // An answer to a call already answered: FUNCTION_RESPONSE_NOT_PENDING.
      const answered = await service.createSession(key('answered'));
      await service.appendEvent(answered, event({ author: 'user', content: answer('confirm-1') }));
      await attempt(answered, { author: 'user', content: answer('confirm-1') });
      // A session the store does not hold: SESSION_NOT_FOUND.
      await attempt(new Session({ id: 'ghost', appName, userId: 'u' }));

      expect(refused).toEqual(['SESSION_BUSY', 'STALE_SESSION', 'FUNCTION_RESPONSE_NOT_PENDING', 'SESSION_NOT_FOUND']);
      expect((await service.createSession(key('reader'))).state).toEqual({});
      for (const id of ['busy', 'stale', 'answered']) expect((await service.getSession(key(id)))!.state).toEqual({});
    });

    it('keeps last-writer-wins per key for plain writes of user: and app: state from several sessions', async () => {
      const [a, b] = await Promise.all([service.createSession(key('a')), service.createSession(key('b'))]);
      await service.appendEvent(a, event({ actions: delta({ 'user:n': 1, 'app:n': 1 }) }));
      await service.appendEvent(b, event({ actions: delta({ 'user:n': 1, 'app:n': 1 }) })); // b read 0 and wrote 0 + 1 too
      expect((await service.getSession(key('a')))!.state).toEqual({ 'user:n': 1, 'app:n': 1 });
    });

    it('applies increments inside the append: 40 racing increments from 10 sessions (user: and app:) lose none, and each stored event holds the value it reached', async () => {
      const sessions = await Promise.all(Array.from({ length: 10 }, (_, i) => service.createSession(key(`s${i}`, i < 5 ? 'u' : 'v'))));
      // The values in stateDelta are what the writer saw (here: nothing yet); the store replaces them with what it reaches.
      const inc = (by: Record<string, number>) => ({
        stateDelta: { ...by },
        artifactDelta: {},
        stateOps: Object.fromEntries(Object.entries(by).map(([k, n]) => [k, { op: 'increment' as const, by: n }])),
      });
      // Every session appends from state it read before any other append: a read-modify-write would lose most of them.
      await Promise.all(sessions.map(async (session) => {
        for (let i = 0; i < 4; i++) await service.appendEvent(session, event({ actions: inc({ 'app:total': 2, 'user:count': 1 }) }));
      }));
      expect((await service.getSession(key('s0')))!.state).toEqual({ 'app:total': 80, 'user:count': 20 });
      expect((await service.getSession(key('s9', 'v')))!.state).toEqual({ 'app:total': 80, 'user:count': 20 });
      const reached = (await Promise.all(sessions.map((s) => service.getSession(key(s.id, s.userId))))).flatMap((s) => s!.events.map((e) => e.actions.stateDelta['app:total']));
      expect([...reached].sort((x, y) => (x as number) - (y as number))).toEqual(Array.from({ length: 40 }, (_, i) => 2 * (i + 1)));
      // The writer's copy of the session holds what the store reached, too.
      expect(sessions.map((s) => s.state['app:total']).every((v) => typeof v === 'number' && v >= 8)).toBe(true);
      // A session key counts from 0, and an increment of a key holding something else than a number stores nothing.
      const own = (await service.getSession(key('s0')))!;
      await service.appendEvent(own, event({ actions: inc({ mine: 5 }) }));
      await service.appendEvent(own, event({ actions: delta({ 'user:count': 'twenty' }) }));
      await expect(service.appendEvent(own, event({ actions: inc({ 'user:count': 1 }) }))).rejects.toMatchObject({ code: 'STATE_CONFLICT', key: 'user:count', actual: 'twenty' });
      expect((await service.getSession(key('s0')))!.state).toMatchObject({ mine: 5, 'user:count': 'twenty' });
      expect((await service.getSession(key('s0')))!.lastSequence).toBe(6);
    });

    it('applies compare-and-set inside the append: of 8 sessions racing from the same value exactly one stores, the others get STATE_CONFLICT and store nothing', async () => {
      const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => service.createSession({ ...key(`s${i}`), state: i === 0 ? { 'app:seat': 'free' } : undefined })));
      const cas = (value: string, sessionKey: string) => ({
        stateDelta: { 'app:seat': value, [`took-${sessionKey}`]: true },
        artifactDelta: {},
        stateOps: { 'app:seat': { op: 'compareAndSet' as const, expected: 'free' } },
      });
      const results = await Promise.all(sessions.map((s) => outcome(service.appendEvent(s, event({ author: s.id, actions: cas(s.id, s.id) })))));
      expect(results.filter((r) => r === 'ok')).toHaveLength(1);
      expect(results.filter((r) => r === 'STATE_CONFLICT')).toHaveLength(7);
      const winner = sessions[results.indexOf('ok')];
      for (const s of sessions) {
        const stored = (await service.getSession(key(s.id)))!;
        expect(stored.state['app:seat']).toBe(winner.id);
        expect([stored.lastSequence, stored.state[`took-${s.id}`]]).toEqual(s === winner ? [1, true] : [0, undefined]);
      }
      // Expecting "not set" (null), and deleting under a condition.
      await expect(service.appendEvent(sessions[1], event({ actions: { stateDelta: { 'user:once': 1 }, artifactDelta: {}, stateOps: { 'user:once': { op: 'compareAndSet', expected: null } } } }))).resolves.toBeInstanceOf(Event);
      await expect(service.appendEvent(sessions[2], event({ actions: { stateDelta: { 'user:once': 2 }, artifactDelta: {}, stateOps: { 'user:once': { op: 'compareAndSet', expected: null } } } }))).rejects.toMatchObject({ code: 'STATE_CONFLICT', key: 'user:once', expected: null, actual: 1 });
      await service.appendEvent(sessions[2], event({ actions: { stateDelta: { 'app:seat': null }, artifactDelta: {}, stateOps: { 'app:seat': { op: 'compareAndSet', expected: winner.id } } } }));
      // s3 shares the user and app scopes; its own key is there only if it won the race above.
      expect((await service.getSession(key('s3')))!.state).toEqual({ 'user:once': 1, ...(winner.id === 's3' ? { 'took-s3': true } : {}) });
      // Objects compare as JSON, whatever their key order.
      await service.appendEvent(sessions[3], event({ actions: delta({ 'app:obj': { a: 1, b: [1, { c: 2 }] } }) }));
      await service.appendEvent(sessions[3], event({ actions: { stateDelta: { 'app:obj': 'swapped' }, artifactDelta: {}, stateOps: { 'app:obj': { op: 'compareAndSet', expected: { b: [1, { c: 2 }], a: 1 } } } } }));
      expect((await service.getSession(key('s3')))!.state['app:obj']).toBe('swapped');
    });

    it('checks a state update after the sequence: a stale writer whose compare-and-set would fail too gets STALE_SESSION', async () => {
      const first = await service.createSession({ ...key(), state: { 'app:v': 1 } });
      const second = (await service.getSession(key()))!;
      await service.appendEvent(first, event({ actions: delta({ 'app:v': 2 }) }));
      const stale = service.appendEvent(second, event({ actions: { stateDelta: { 'app:v': 3 }, artifactDelta: {}, stateOps: { 'app:v': { op: 'compareAndSet', expected: 1 } } } }));
      await expect(stale).rejects.toMatchObject({ code: 'STALE_SESSION' });
    });

    it('runs tools that update shared state from many sessions at once: increments add up, and of two racing compare-and-sets one wins and the other call answers STATE_CONFLICT', async () => {
      const bothInside = [deferred(), deferred()];
      const release = deferred();
      const book = functionTool({
        name: 'book',
        description: 'Books the seat and counts the bookings tried.',
        execute: async (_args, ctx) => {
          ctx.state.increment('app:tries');
          if (!ctx.state.compareAndSet('app:seat', undefined, ctx.sessionId)) return { booked: false };
          bothInside[ctx.sessionId === 'a' ? 0 : 1].resolve();
          await release.promise;
          return { booked: true };
        },
      });
      const runnerFor = () =>
        new Runner({ appName, agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([{ calls: [{ id: 'b-1', name: 'book', args: {} }] }, 'done']), tools: [book] }), sessionService: service });
      const runs = ['a', 'b'].map((sessionId) => collect(runnerFor().run({ userId: 'u', sessionId, newMessage: user('book it') })));
      // Both tools read "no seat" before either stored its step.
      await Promise.all(bothInside.map((d) => d.promise));
      release.resolve();
      const [a, b] = await Promise.all(runs);

      const responses = [a, b].map((events) => events.flatMap((e) => e.functionResponses())[0]);
      expect([a, b].map((events) => events.at(-1)!.text())).toEqual(['done', 'done']);
      const lost = responses.filter((r) => r.isError);
      expect(lost).toHaveLength(1);
      expect(lost[0].response).toMatchObject({ error: { code: 'STATE_CONFLICT', details: { key: 'app:seat', expected: null } } });
      const winner = responses[0].isError ? 'b' : 'a';
      const loser = winner === 'a' ? 'b' : 'a';
      const stored = (await service.getSession(key(winner)))!;
      // The losing call's writes (its increment too) are not stored; its error answer is, so nothing is left unanswered.
      expect(stored.state).toEqual({ 'app:seat': winner, 'app:tries': 1 });
      const lostSession = (await service.getSession(key(loser)))!;
      expect(lostSession.events.flatMap((e) => e.functionResponses()).map((r) => r.response)).toEqual([lost[0].response]);
      expect(lostSession.events.at(-1)!.text()).toBe('done');

      // Increments from 6 sessions' tools at once (each run's tool reads before any append): none lost.
      const inc = functionTool({
        name: 'visit',
        description: 'Counts a visit.',
        execute: (_args, ctx) => ({ seen: ctx.state.increment('user:visits', 2) }),
      });
      const incRuns = Array.from({ length: 6 }, (_, i) =>
        collect(new Runner({ appName, agent: new LlmAgent({ name: 'door', model: new ScriptedModel([{ calls: [{ name: 'visit', args: {} }, { name: 'visit', args: {} }] }, 'ok']), tools: [inc] }), sessionService: service }).run({ userId: 'u', sessionId: `v${i}`, newMessage: user('hi') })),
      );
      await Promise.all(incRuns);
      expect((await service.getSession(key('v0')))!.state['user:visits']).toBe(24);
    });

    it('keeps every invocation of runners racing on one session whole: one writer at a time, each call answered once', async () => {
      await service.createSession({ ...key(), state: { 'user:count': 0 } });
      const increment = functionTool({
        name: 'increment',
        description: 'Adds one to the user counter.',
        execute: (_args, ctx) => {
          const next = ((ctx.state.get('user:count') as number | undefined) ?? 0) + 1;
          ctx.state.set('user:count', next);
          return { count: next };
        },
      });
      const script = () => Array.from({ length: 5 }, () => [{ calls: [{ name: 'increment', args: {} }] }, 'counted']).flat();
      const runners = [0, 1].map(() => new Runner({ appName, agent: new LlmAgent({ name: 'counter', model: new ScriptedModel(script()), tools: [increment] }), sessionService: service }));
      const results = await Promise.all(runners.flatMap((runner, r) => Array.from({ length: 5 }, (_, i) => collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user(`r${r}-${i}`) })))));

      // Each run waits for the session's claim, so every one completes.
      const ends = results.map((events) => events.at(-1)!.errorCode ?? events.at(-1)!.text());
      expect(ends).toEqual(Array.from({ length: 10 }, () => 'counted'));
      const stored = (await service.getSession(key()))!;
      const byInvocation: string[] = [];
      for (const e of stored.events) if (byInvocation.at(-1) !== e.invocationId) byInvocation.push(e.invocationId);
      expect(new Set(byInvocation).size).toBe(byInvocation.length); // no invocation was interleaved with another
      const calls = stored.events.flatMap((e) => e.functionCalls().map((c) => c.id));
      const answered = stored.events.flatMap((e) => e.functionResponses().map((r) => r.id));
      expect([...answered].sort()).toEqual([...calls].sort()); // every stored call answered exactly once
      const counted = stored.events.flatMap((e) => e.functionResponses()).filter((r) => !r.isError).length;
      expect([counted, stored.state['user:count']]).toEqual([10, 10]);
    });
  });
}
