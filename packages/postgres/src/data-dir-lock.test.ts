import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock } from './data-dir-lock';

describe('DataDirLock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("takes over a lock naming this process's pid that this process does not hold (a restarted container's PID 1)", () => {
    writeFileSync(join(dir, 'toolsmith.lock'), JSON.stringify({ pid: process.pid, host: hostname(), token: 'previous-life' }));
    const lock = DataDirLock.acquire(dir);
    expect(JSON.parse(readFileSync(join(dir, 'toolsmith.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('refuses a second lock of one directory in one process, and frees it on release', () => {
    const lock = DataDirLock.acquire(dir);
    expect(() => DataDirLock.acquire(dir)).toThrow(expect.objectContaining({ code: 'POSTGRES_DATA_DIR_LOCKED', pid: process.pid }));
    lock.release();
    DataDirLock.acquire(dir).release();
  });
});
