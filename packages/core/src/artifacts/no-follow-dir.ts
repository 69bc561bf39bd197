import { constants, existsSync } from 'node:fs';
import { mkdir, open, readdir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtifactOutsideRootError } from '../errors/invalid-artifact-name-error';

const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = constants;

/**
 * Linux names every open descriptor at `/proc/self/fd/<fd>`: a path through it starts at the directory
 * the descriptor holds, not at whatever its name leads to now, which is how `openat` is had without a
 * native addon. Elsewhere the path is looked up again by name, so a racing local attacker can win.
 */
const descriptorPaths = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Error codes meaning "a link or a non-directory stands where a directory should be". */
const NOT_A_PLAIN_DIRECTORY = new Set(['ELOOP', 'ENOTDIR', 'EMLINK']);

/**
 * A directory opened below an artifact root one segment at a time, never following a symbolic link:
 * once opened, swapping any directory on its path for a link changes nothing about where its children are.
 */
export class NoFollowDir {
  private constructor(
    private readonly handle: FileHandle,
    /** Where it was opened by name: for error messages, and the lookup path where descriptors have no path. */
    readonly displayPath: string,
  ) {}

  /** Opens the root (created if missing; a root that is itself a link is the operator's choice and is followed). */
  static async openRoot(rootDir: string): Promise<NoFollowDir> {
    // Every operation opens the root: it is made only when missing, not with a mkdir on each call.
    try {
      return new NoFollowDir(await open(rootDir, O_RDONLY | O_DIRECTORY), rootDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await mkdir(rootDir, { recursive: true });
    return new NoFollowDir(await open(rootDir, O_RDONLY | O_DIRECTORY), rootDir);
  }

  /**
   * Opens `segments` below `root` without following links, closing the intermediate directories; with
   * `create`, missing ones are made. Resolves `undefined` when one is missing and `create` is false. A
   * link or a file where a directory should be throws `ArtifactOutsideRootError`. `root` stays open.
   */
  static async openBelow(root: NoFollowDir, segments: readonly string[], create: boolean): Promise<NoFollowDir | undefined> {
    let dir = root;
    for (const segment of segments) {
      let next: NoFollowDir | undefined;
      try {
        next = await dir.openChild(segment, create);
      } finally {
        if (dir !== root) await dir.close();
      }
      if (!next) return undefined;
      dir = next;
    }
    return dir;
  }

  /** The path to use for a child: through the descriptor on Linux, so only the last component is looked up by name. */
  childPath(name: string): string {
    return join(descriptorPaths ? `/proc/self/fd/${this.handle.fd}` : this.displayPath, name);
  }

  /** The directory's entry names; an empty list when it has been removed meanwhile. */
  async list(): Promise<string[]> {
    try {
      return await readdir(this.childPath(''));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Opens a regular file child for reading; a link, a non-file or a file with other hard links is refused. */
  async openFile(name: string): Promise<FileHandle | undefined> {
    let file: FileHandle;
    try {
      file = await open(this.childPath(name), O_RDONLY | O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code && NOT_A_PLAIN_DIRECTORY.has(code)) throw new ArtifactOutsideRootError(join(this.displayPath, name));
      throw error;
    }
    const stat = await file.stat();
    // A hard link is another name for a file that may live anywhere on the device: never ours.
    if (!stat.isFile() || stat.nlink !== 1) {
      await file.close();
      throw new ArtifactOutsideRootError(join(this.displayPath, name));
    }
    return file;
  }

  /** Removes a file child (a link is removed itself, never its target); nothing when it is absent. */
  async removeFile(name: string): Promise<void> {
    try {
      await unlink(this.childPath(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Removes a child directory and what is in it, opening each level without following links. */
  async removeChild(name: string): Promise<void> {
    const child = await this.openChild(name, false);
    if (!child) return;
    try {
      for (const entry of await child.list()) {
        try {
          await unlink(child.childPath(entry)); // never follows: a link is removed, not its target
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EISDIR' || code === 'EPERM') await child.removeChild(entry);
          else if (code !== 'ENOENT') throw error;
        }
      }
    } finally {
      await child.close();
    }
    try {
      await rmdir(this.childPath(name)); // a link swapped in meanwhile fails ENOTDIR instead of being followed
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTEMPTY: a save landed after we emptied it, so it came after this removal and stays.
      if (code === 'ENOENT' || code === 'ENOTEMPTY' || code === 'EEXIST') return;
      if (code && NOT_A_PLAIN_DIRECTORY.has(code)) throw new ArtifactOutsideRootError(join(this.displayPath, name));
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  private async openChild(name: string, create: boolean): Promise<NoFollowDir | undefined> {
    const path = this.childPath(name);
    // A directory removed between our mkdir and open is made again, a few times at most.
    for (let attempt = 0; ; attempt++) {
      try {
        return new NoFollowDir(await open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW), join(this.displayPath, name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code && NOT_A_PLAIN_DIRECTORY.has(code)) throw new ArtifactOutsideRootError(join(this.displayPath, name));
        if (code !== 'ENOENT') throw error;
        if (!create) return undefined;
        if (attempt === 3) throw error;
      }
      try {
        await mkdir(path); // fails EEXIST on anything planted meanwhile, which the next open then judges
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
}
