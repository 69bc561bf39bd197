import type { ChildProcess } from 'node:child_process';
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresSessionService } from './postgres-session-service';

// Two OS processes on one PGlite data directory: the second is refused, naming the first; a lock left
// by a killed process is taken over, and what that process stored is all there.

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'toolsmith-pglite-lock-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts a process holding `dir` open; resolves once it has stored its session. */
function holder(dir: string): Promise<ChildProcess> {
  const child = fork(join(__dirname, '__fixtures__', 'pglite-holder.ts'), [dir], {
    execArgv: ['-r', join(__dirname, '__fixtures__', 'register-esbuild.js')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the holder exited with code ${code} before it was ready`)));
  });
}

it('refuses a second process with POSTGRES_DATA_DIR_LOCKED naming the holder, and takes over the lock of a killed one with nothing lost', async () => {
  const first = await holder(dataDir);

  let refusal: unknown;
  try {
    PostgresSessionService.embedded({ dataDir });
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toMatchObject({ code: 'POSTGRES_DATA_DIR_LOCKED', pid: first.pid, dataDir });
  expect((refusal as Error).message).toContain(`in use by process ${first.pid}`);

  const exited = new Promise((resolve) => first.once('exit', resolve));
  first.kill('SIGKILL');
  await exited;

  const store = PostgresSessionService.embedded({ dataDir }); // the dead process's lock is taken over
  try {
    const kept = (await store.getSession({ appName: 'app', userId: 'u', sessionId: 'kept' }))!;
    expect(kept.events.map((e) => e.text())).toEqual(['event 0', 'event 1', 'event 2', 'event 3', 'event 4']);
    // Another store in this process is refused too, naming this process.
    expect(() => PostgresSessionService.embedded({ dataDir })).toThrow(expect.objectContaining({ code: 'POSTGRES_DATA_DIR_LOCKED', pid: process.pid }));
  } finally {
    await store.close();
  }
  expect(existsSync(join(dataDir, 'toolsmith.lock'))).toBe(false); // released on close
  const reopened = PostgresSessionService.embedded({ dataDir });
  await reopened.close();
}, 180_000);

it('takes over a lock file naming a process that no longer exists, and refuses one it cannot read', async () => {
  const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = gone.pid!;
  await new Promise((resolve) => gone.once('exit', resolve));
  writeFileSync(join(dataDir, 'toolsmith.lock'), JSON.stringify({ pid, host: hostname(), token: 'stale' }));
  const store = PostgresSessionService.embedded({ dataDir });
  await store.close();

  writeFileSync(join(dataDir, 'toolsmith.lock'), 'not a lock');
  expect(() => PostgresSessionService.embedded({ dataDir })).toThrow(expect.objectContaining({ code: 'POSTGRES_DATA_DIR_LOCKED', pid: undefined }));
}, 60_000);
