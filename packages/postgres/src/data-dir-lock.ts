import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { DataDirLockedError } from './errors/data-dir-locked-error';

/** What a lock file holds: who holds the directory. */
interface LockOwner {
  pid: number;
  host: string;
  /** Tells two holders in one process apart (and a lock we still own from one we lost). */
  token: string;
}

const LOCK_FILE = 'toolsmith.lock';
/** Tokens of the locks this process holds: a lock naming this process with any other token is a previous life's (e.g. PID 1 in a restarted container). */
const heldTokens = new Set<string>();
const TAKEOVER_FILE = 'toolsmith.lock.takeover';

/**
 * One process (and one open store) per PGlite data directory, by a lock file in it naming the process.
 * A lock whose process is gone (a crash, a SIGKILL) is taken over; taking over is itself guarded by a
 * second lock file, so of two processes finding the same stale lock, one takes it and the other then
 * finds a living holder and is refused.
 */
export class DataDirLock {
  private constructor(
    private readonly file: string,
    private readonly token: string,
  ) {}

  /** Locks `dataDir` (created when missing) for this process, or throws `POSTGRES_DATA_DIR_LOCKED` naming the living holder. */
  static acquire(dataDir: string): DataDirLock {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, LOCK_FILE);
    const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomUUID() };
    for (let attempt = 0; ; attempt++) {
      if (createExclusive(file, owner)) {
        heldTokens.add(owner.token);
        return new DataDirLock(file, owner.token);
      }
      const holder = readOwner(file);
      if (holder === 'missing') continue; // released between our attempt and the read: try again
      if (holder === 'unreadable' || isAlive(holder)) throw new DataDirLockedError(dir, holder === 'unreadable' ? undefined : holder.pid, file);
      // A dead holder: take its lock over, under the takeover lock.
      const takeover = join(dir, TAKEOVER_FILE);
      if (!createExclusive(takeover, owner)) {
        const other = readOwner(takeover);
        // Someone else is taking over right now; if they died doing it, clear their takeover lock.
        if (other !== 'missing' && other !== 'unreadable' && !isAlive(other)) removeIfOwner(takeover, other.token);
        if (attempt > 100) throw new DataDirLockedError(dir, other === 'missing' || other === 'unreadable' ? undefined : other.pid, takeover);
        continue;
      }
      try {
        const still = readOwner(file);
        // Only the lock we judged stale is replaced: if it changed meanwhile, start over.
        if (still !== 'missing' && still !== 'unreadable' && still.token === holder.token) unlinkSync(file);
      } finally {
        removeIfOwner(takeover, owner.token);
      }
    }
  }

  /** Removes the lock file, if it is still this lock's. */
  release(): void {
    heldTokens.delete(this.token);
    removeIfOwner(this.file, this.token);
  }
}

/** Creates `file` holding `owner`, atomically (written whole, then linked into place); false when it exists. */
function createExclusive(file: string, owner: LockOwner): boolean {
  const temp = `${file}.${owner.token}.tmp`;
  writeFileSync(temp, JSON.stringify(owner));
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

function readOwner(file: string): LockOwner | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.token === 'string' ? { pid: owner.pid, host: String(owner.host), token: owner.token } : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/**
 * A holder is alive when its process exists (signal 0 checks without sending; EPERM: it exists, as another
 * user's); a holder naming this very process is alive only while this process holds that lock. On another
 * host it is taken as alive.
 */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return heldTokens.has(owner.token);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeIfOwner(file: string, token: string): void {
  const owner = readOwner(file);
  if (owner !== 'missing' && owner !== 'unreadable' && owner.token === token) {
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
