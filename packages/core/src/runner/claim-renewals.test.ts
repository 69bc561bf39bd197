import { LlmAgent } from '../agents/llm-agent';
import { functionTool } from '../function-tool/function-tool';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { SessionKey } from '../sessions/session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** An in-memory store that counts each session's renewals, and tells whoever waits for the next one. */
class CountingRenewals extends InMemorySessionService {
  readonly renewals = new Map<string, number>();
  private readonly waiting: Array<{ sessionId: string; count: number; resolve: () => void }> = [];

  override async renewClaim(key: SessionKey, fence: number, leaseMs: number): Promise<boolean> {
    const count = (this.renewals.get(key.sessionId) ?? 0) + 1;
    this.renewals.set(key.sessionId, count);
    for (const waiter of this.waiting.filter((w) => w.sessionId === key.sessionId && w.count <= count)) waiter.resolve();
    return super.renewClaim(key, fence, leaseMs);
  }

  /** Resolves once `sessionId`'s claim has been renewed `count` times in all. */
  renewed(sessionId: string, count: number): Promise<void> {
    if ((this.renewals.get(sessionId) ?? 0) >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ sessionId, count, resolve }));
  }
}

describe('claim renewals', () => {
  it('renews the claim of every run in progress until it ends, whatever order the runs end in, and stops with the last', async () => {
    const sessionService = new CountingRenewals();
    const finish = new Map(['a', 'b', 'c'].map((id) => [id, deferred<object>()]));
    const inside = new Map(['a', 'b', 'c'].map((id) => [id, deferred()]));
    const hold = functionTool<{ session: string }>({
      name: 'hold',
      description: 'Holds the run until the test lets it go.',
      parameters: { type: 'object', properties: { session: { type: 'string' } }, required: ['session'] },
      execute: ({ session }) => {
        inside.get(session)!.resolve();
        return finish.get(session)!.promise;
      },
    });
    // Each run's model calls `hold` with the run's session id (its message), then answers.
    const model = new ScriptedModel((request) => {
      const last = request.contents[request.contents.length - 1];
      if (last.parts[0]?.functionResponse) return 'done';
      return { calls: [{ id: 'c-1', name: 'hold', args: { session: request.contents[0].parts[0].text! } }] };
    });
    // A lease of its own length: no other test's runs share this renewal timer.
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [hold] }), sessionService, sessionClaim: { leaseMs: 1_057 } });
    const runs = new Map(['a', 'b', 'c'].map((id) => [id, collect(runner, id, { userId: 'u', sessionId: id })]));
    for (const gate of inside.values()) await gate.promise;

    // All three held at once: each is renewed, twice.
    await Promise.all(['a', 'b', 'c'].map((id) => sessionService.renewed(id, 2)));
    // The middle one ends first, then the first: the others are still renewed, and the ended ones no more.
    finish.get('b')!.resolve({ ok: true });
    expect((await runs.get('b')!).at(-1)!.text()).toBe('done');
    const bEnded = sessionService.renewals.get('b');
    await Promise.all(['a', 'c'].map((id) => sessionService.renewed(id, sessionService.renewals.get(id)! + 2)));
    finish.get('a')!.resolve({ ok: true });
    expect((await runs.get('a')!).at(-1)!.text()).toBe('done');
    const aEnded = sessionService.renewals.get('a');
    await sessionService.renewed('c', sessionService.renewals.get('c')! + 2);
    finish.get('c')!.resolve({ ok: true });
    expect((await runs.get('c')!).at(-1)!.text()).toBe('done');
    expect(sessionService.renewals.get('b')).toBe(bEnded);
    expect(sessionService.renewals.get('a')).toBe(aEnded);

    // A run after all three is renewed again (the timer comes back when a claim is held again).
    finish.set('a', deferred<object>());
    inside.set('a', deferred());
    const again = collect(runner, 'a', { userId: 'u', sessionId: 'a' });
    await inside.get('a')!.promise;
    await sessionService.renewed('a', aEnded! + 2);
    finish.get('a')!.resolve({ ok: true });
    expect((await again).at(-1)!.text()).toBe('done');
  });
});
