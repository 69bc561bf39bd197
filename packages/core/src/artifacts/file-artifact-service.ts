import { writeFile } from 'node:fs/promises';
import type { Part } from '../model/content';
import type { ArtifactLocation, ArtifactService } from './artifact-service';
import { checkSegment, isUserArtifact } from './artifact-scope';
import { NoFollowDir } from './no-follow-dir';

/**
 * Stores artifact versions as JSON files under a root directory:
 * `<root>/<app>/<user>/sessions/<session>/<filename>/<version>.json`, and `<root>/<app>/<user>/user/…`
 * for `user:` files. Every segment is URI-encoded, so names cannot escape the root. Below the root every
 * directory is opened one level at a time without following symbolic links, and a version file is read
 * only when it is a regular file with no other hard link: a link planted under the root is refused
 * (`ARTIFACT_OUTSIDE_ROOT`), so nothing outside the root is read, written or deleted. On Linux this holds
 * against a directory swapped for a link while an operation runs (each level is opened through the
 * previous one's descriptor); elsewhere each level is looked up by name. Versions count from 0.
 */
export class FileArtifactService implements ArtifactService {
  constructor(private readonly rootDir: string) {}

  /** Writes the part as the file's next version (`<version>.json`) and returns its number; concurrent saves get distinct versions. */
  async saveArtifact(request: ArtifactLocation & { artifact: Part }): Promise<number> {
    const data = JSON.stringify(request.artifact);
    const segments = this.fileSegments(request);
    for (let attempt = 1; ; attempt++) {
      const saved = await this.inDir(segments, true, async (dir) => {
        for (;;) {
          const version = versionsOf(await dir.list()).reduce((max, v) => Math.max(max, v + 1), 0);
          try {
            // `wx` (O_CREAT|O_EXCL) never follows a link and fails if a concurrent save took this version.
            await writeFile(dir.childPath(`${version}.json`), data, { flag: 'wx' });
            return version;
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            // ENOENT: a concurrent deleteArtifact removed the directory we hold; start again in a new one.
            if (code === 'ENOENT' && attempt < 5) return undefined;
            if (code !== 'EEXIST') throw error;
          }
        }
      });
      if (saved !== undefined) return saved;
    }
  }

  /** The given version, else the latest, read back from its JSON file; `undefined` when there is none. */
  async loadArtifact(request: ArtifactLocation & { version?: number }): Promise<Part | undefined> {
    return this.inDir(this.fileSegments(request), false, async (dir) => {
      const versions = versionsOf(await dir.list());
      const version = request.version ?? (versions.length ? Math.max(...versions) : undefined);
      if (version === undefined || !versions.includes(version)) return undefined;
      const file = await dir.openFile(`${version}.json`);
      if (!file) return undefined;
      try {
        return JSON.parse(await file.readFile('utf8')) as Part;
      } finally {
        await file.close();
      }
    });
  }

  /** The session's filenames and the user's `user:` filenames (decoded from the directory names), sorted. */
  async listArtifactKeys(request: Omit<ArtifactLocation, 'filename'>): Promise<string[]> {
    const own = (await this.inDir(this.scopeSegments({ ...request, filename: '' }), false, (dir) => dir.list())) ?? [];
    const user = (await this.inDir(this.scopeSegments({ ...request, filename: 'user:' }), false, (dir) => dir.list())) ?? [];
    return [...own, ...user].map(decodeURIComponent).sort();
  }

  /** The file's version numbers, ascending, from the `<version>.json` files present; empty when it has none. */
  async listVersions(request: ArtifactLocation): Promise<number[]> {
    return (await this.inDir(this.fileSegments(request), false, async (dir) => versionsOf(await dir.list()))) ?? [];
  }

  /** Removes one version's file; does nothing when there is none. */
  async deleteArtifactVersion(request: ArtifactLocation & { version: number }): Promise<void> {
    await this.inDir(this.fileSegments(request), false, (dir) => dir.removeFile(`${request.version}.json`));
  }

  /** Removes the file's directory with all its versions; does nothing when there is none. */
  async deleteArtifact(request: ArtifactLocation): Promise<void> {
    await this.inDir(this.scopeSegments(request), false, (dir) => dir.removeChild(encode(request.filename)));
  }

  /** Runs `work` in the directory at `segments` below the root; `undefined` when it is missing and not created. */
  private async inDir<T>(segments: string[], create: boolean, work: (dir: NoFollowDir) => Promise<T>): Promise<T | undefined> {
    const root = await NoFollowDir.openRoot(this.rootDir);
    try {
      const dir = await NoFollowDir.openBelow(root, segments, create);
      if (!dir) return undefined;
      try {
        return await work(dir);
      } finally {
        await dir.close();
      }
    } finally {
      await root.close();
    }
  }

  private scopeSegments(location: ArtifactLocation): string[] {
    checkSegment('appName', location.appName);
    checkSegment('userId', location.userId);
    const base = [encode(location.appName), encode(location.userId)];
    if (isUserArtifact(location.filename)) return [...base, 'user'];
    checkSegment('sessionId', location.sessionId);
    return [...base, 'sessions', encode(location.sessionId)];
  }

  private fileSegments(location: ArtifactLocation): string[] {
    checkSegment('filename', location.filename);
    return [...this.scopeSegments(location), encode(location.filename)];
  }
}

/** The version numbers among a directory's entry names (`<n>.json`), ascending. */
const versionsOf = (names: string[]): number[] =>
  names
    .map((name) => /^(\d+)\.json$/.exec(name)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
    .sort((a, b) => a - b);

const encode = (segment: string) => encodeURIComponent(segment);
