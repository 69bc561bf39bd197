import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Part } from '../model/content';
import { ArtifactLocation, ArtifactService } from './artifact-service';
import { checkSegment, isUserArtifact } from './artifact-scope';

/**
 * Stores artifact versions as JSON files under a root directory:
 * `<root>/<app>/<user>/sessions/<session>/<filename>/<version>.json`, and `<root>/<app>/<user>/user/…`
 * for `user:` files. Every segment is URI-encoded, so names cannot escape the root. Versions count from 0.
 */
export class FileArtifactService implements ArtifactService {
  constructor(private readonly rootDir: string) {}

  async saveArtifact(request: ArtifactLocation & { artifact: Part }): Promise<number> {
    const dir = this.fileDir(request);
    await mkdir(dir, { recursive: true });
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

  async loadArtifact(request: ArtifactLocation & { version?: number }): Promise<Part | undefined> {
    const dir = this.fileDir(request);
    const versions = await this.versionsIn(dir);
    const version = request.version ?? (versions.length ? Math.max(...versions) : undefined);
    if (version === undefined || !versions.includes(version)) return undefined;
    return JSON.parse(await readFile(join(dir, `${version}.json`), 'utf8')) as Part;
  }

  async listArtifactKeys(request: Omit<ArtifactLocation, 'filename'>): Promise<string[]> {
    const own = await listDir(this.scopeDir({ ...request, filename: '' }));
    const user = await listDir(this.scopeDir({ ...request, filename: 'user:' }));
    return [...own, ...user].map(decodeURIComponent).sort();
  }

  async listVersions(request: ArtifactLocation): Promise<number[]> {
    return this.versionsIn(this.fileDir(request));
  }

  async deleteArtifact(request: ArtifactLocation): Promise<void> {
    await rm(this.fileDir(request), { recursive: true, force: true });
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
    return (await listDir(dir))
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
