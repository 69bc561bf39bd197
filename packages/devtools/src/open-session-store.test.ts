import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionStore } from './open-session-store';

describe('openSessionStore', () => {
  let projectDir: string;
  beforeEach(() => (projectDir = mkdtempSync(join(tmpdir(), 'toolsmith-devtools-'))));
  afterEach(() => rmSync(projectDir, { recursive: true, force: true }));

  it('keeps sessions in memory when asked to, and says so', async () => {
    const store = await openSessionStore({ projectDir, store: 'memory' });
    expect(store.info).toEqual({ kind: 'memory', durable: false, description: expect.stringContaining('in memory') });
    await store.sessionService.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    expect(await store.sessionService.getSession({ appName: 'a', userId: 'u', sessionId: 's' })).toBeDefined();
    await store.close();
  });

  it('with @toolsmith/postgres installed, keeps sessions in the embedded store under .toolsmith/sessions, across openings', async () => {
    const first = await openSessionStore({ projectDir });
    expect(first.info).toEqual({ kind: 'embedded', durable: true, description: `embedded PostgreSQL (PGlite) in ${join(projectDir, '.toolsmith', 'sessions')}` });
    await first.sessionService.createSession({ appName: 'a', userId: 'u', sessionId: 'kept', state: { city: 'Paris' } });
    await first.close();

    const second = await openSessionStore({ projectDir });
    expect((await second.sessionService.getSession({ appName: 'a', userId: 'u', sessionId: 'kept' }))?.state).toEqual({ city: 'Paris' });
    await second.close();
  }, 60_000); // two PGlite start-ups (WASM) take several seconds on a busy machine
});
