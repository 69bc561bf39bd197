import { lstat, mkdir, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { ArtifactOutsideRootError } from '../errors/invalid-artifact-name-error';
import type { Part } from '../model/content';
import type { ArtifactLocation, ArtifactService } from './artifact-service';
import { checkSegment, isUserArtifact } from './artifact-scope';

/**
 * Stores artifact versions as JSON files under a root directory:
 * `<root>/<app>/<user>/sessions/<session>/<filename>/<version>.json`, and `<root>/<app>/<user>/user/…`
 * for `user:` files. Every segment is URI-encoded, so names cannot escape the root, and every path is
 * resolved before use: a symbolic link planted under the root that leads outside it is refused
 * (`ARTIFACT_OUTSIDE_ROOT`), so nothing outside the root is read, written or deleted. Versions count from 0.
 */
export class FileArtifactService implements ArtifactService {
  private rootReal?: Promise<string>;

  constructor(private readonly rootDir: string) {}

  /** Writes the part as the file's next version (`<version>.json`) and returns its number; concurrent saves get distinct versions. */
  async saveArtifact(request: ArtifactLocation & { artifact: Part }): Promise<number> {
    const dir = this.fileDir(request);
    await this.assertInsideRoot(dir); // before mkdir, which would follow a planted link
    await mkdir(dir, { recursive: true });
    await this.assertInsideRoot(dir);
    const version = (await this.versionsIn(dir)).reduce((max, v) => Math.max(max, v + 1), 0);
    // `wx` fails if a concurrent save took this version; retrying finds the next free one.
    try {
      await writeFile(join(dir, `${version}.json`), JSON.stringify(request.artifact), { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return this.saveArtifact(request);
      throw error;
    }
    return version;
  }

  /** The given version, else the latest, read back from its JSON file; `undefined` when there is none. */
  async loadArtifact(request: ArtifactLocation & { version?: number }): Promise<Part | undefined> {
    const dir = this.fileDir(request);
    const versions = await this.versionsIn(dir);
    const version = request.version ?? (versions.length ? Math.max(...versions) : undefined);
    if (version === undefined || !versions.includes(version)) return undefined;
    const file = join(dir, `${version}.json`);
    if ((await lstat(file)).isSymbolicLink()) throw new ArtifactOutsideRootError(file);
    return JSON.parse(await readFile(file, 'utf8')) as Part;
  }

  /** The session's filenames and the user's `user:` filenames (decoded from the directory names), sorted. */
  async listArtifactKeys(request: Omit<ArtifactLocation, 'filename'>): Promise<string[]> {
    const own = await this.listInside(this.scopeDir({ ...request, filename: '' }));
    const user = await this.listInside(this.scopeDir({ ...request, filename: 'user:' }));
    return [...own, ...user].map(decodeURIComponent).sort();
  }

  /** The file's version numbers, ascending, from the `<version>.json` files present; empty when it has none. */
  async listVersions(request: ArtifactLocation): Promise<number[]> {
    return this.versionsIn(this.fileDir(request));
  }

  /** Removes one version's file; does nothing when there is none. */
  async deleteArtifactVersion(request: ArtifactLocation & { version: number }): Promise<void> {
    const dir = this.fileDir(request);
    await this.assertInsideRoot(dir);
    await rm(join(dir, `${request.version}.json`), { force: true });
  }

  /** Removes the file's directory with all its versions; does nothing when there is none. */
  async deleteArtifact(request: ArtifactLocation): Promise<void> {
    const dir = this.fileDir(request);
    await this.assertInsideRoot(dir);
    await rm(dir, { recursive: true, force: true });
  }

  /**
   * Refuses `path` when it, or its deepest existing ancestor, resolves outside the root. Paths are
   * built from encoded segments, so only a symbolic link already under the root can lead out.
   */
  private async assertInsideRoot(path: string): Promise<void> {
    const root = await (this.rootReal ??= mkdir(this.rootDir, { recursive: true }).then(() => realpath(this.rootDir)));
    for (let existing = path; ; existing = dirname(existing)) {
      let real: string;
      try {
        real = await realpath(existing);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && dirname(existing) !== existing) continue;
        throw error;
      }
      if (real !== root && !real.startsWith(root + sep)) throw new ArtifactOutsideRootError(path);
      return;
    }
  }

  private async listInside(dir: string): Promise<string[]> {
    await this.assertInsideRoot(dir);
    return listDir(dir);
  }

  private scopeDir(location: ArtifactLocation): string {
    checkSegment('appName', location.appName);
    checkSegment('userId', location.userId);
    const base = join(this.rootDir, encode(location.appName), encode(location.userId));
    if (isUserArtifact(location.filename)) return join(base, 'user');
    checkSegment('sessionId', location.sessionId);
    return join(base, 'sessions', encode(location.sessionId));
  }

  private fileDir(location: ArtifactLocation): string {
    checkSegment('filename', location.filename);
    return join(this.scopeDir(location), encode(location.filename));
  }

  private async versionsIn(dir: string): Promise<number[]> {
    return (await this.listInside(dir))
      .map((name) => /^(\d+)\.json$/.exec(name)?.[1])
      .filter((v): v is string => v !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }
}

const encode = (segment: string) => encodeURIComponent(segment);

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
