import { SequentialCalls } from './sequential-calls';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending callback run: the microtasks and a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('SequentialCalls', () => {
  it("starts a call once the earlier call's answer and its work after it have ended, then keeps nothing", async () => {
    const queues = new SequentialCalls();
    const log: string[] = [];
    const answer = deferred();
    const work = deferred();
    const first = queues.run('app', 'u', 's', 'pay', async () => {
      log.push('start A');
      await answer.promise;
    }, () => work.promise);
    const second = queues.run('app', 'u', 's', 'pay', async () => {
      log.push('start B');
    }, () => undefined);
    answer.resolve();
    await first; // answered: the caller does not wait for the work after it
    await settle();
    expect(log).toEqual(['start A']);
    expect(queues.busy).toBe(1);
    work.resolve();
    await second;
    expect(log).toEqual(['start A', 'start B']);
    await settle();
    expect(queues.busy).toBe(0);
  });

  it('keeps apart each app, user, session and tool', async () => {
    const queues = new SequentialCalls();
    const hold = deferred();
    const started: string[] = [];
    void queues.run('app', 'u', 's', 'pay', () => hold.promise, () => undefined);
    const others: Array<[string, string, string, string]> = [
      ['other', 'u', 's', 'pay'],
      ['app', 'v', 's', 'pay'],
      ['app', 'u', 't', 'pay'],
      ['app', 'u', 's', 'refund'],
      // Ids that would run together in a joined key.
      ['app', 'u', 's","pay', ''],
    ];
    await Promise.all(others.map((ids) => queues.run(...ids, async () => void started.push(ids.join('/')), () => undefined)));
    expect(started).toHaveLength(others.length);
    hold.resolve();
    await settle();
    expect(queues.busy).toBe(0);
  });

  it("a call that failed rejects its own caller only: the next call starts", async () => {
    const queues = new SequentialCalls();
    const failing = deferred();
    const first = queues.run('app', 'u', 's', 'pay', () => failing.promise, () => undefined);
    let started = false;
    const second = queues.run('app', 'u', 's', 'pay', async () => void (started = true), () => undefined);
    failing.reject(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await second;
    expect(started).toBe(true);
  });
});
