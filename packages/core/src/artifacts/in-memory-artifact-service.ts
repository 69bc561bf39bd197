import type { Part } from '../model/content';
import type { ArtifactLocation, ArtifactService } from './artifact-service';
import { artifactScope, checkSegment } from './artifact-scope';

/** Keeps artifact versions in process memory. Versions count from 0. For tests and demos. */
export class InMemoryArtifactService implements ArtifactService {
  /** scope → filename → versions (index = version; a deleted version leaves a hole, so numbers are never reused). */
  private readonly artifacts = new Map<string, Map<string, Array<Part | undefined>>>();

  /** Stores a deep copy of the part as the file's next version and returns its number. */
  async saveArtifact(request: ArtifactLocation & { artifact: Part }): Promise<number> {
    checkSegment('filename', request.filename);
    const scope = artifactScope(request);
    let files = this.artifacts.get(scope);
    if (!files) this.artifacts.set(scope, (files = new Map()));
    let versions = files.get(request.filename);
    if (!versions) files.set(request.filename, (versions = []));
    versions.push(structuredClone(request.artifact));
    return versions.length - 1;
  }

  /** A copy of the given version, else of the latest; `undefined` when there is none. */
  async loadArtifact(request: ArtifactLocation & { version?: number }): Promise<Part | undefined> {
    const versions = this.artifacts.get(artifactScope(request))?.get(request.filename);
    if (!versions) return undefined;
    const part = versions[request.version ?? versions.findLastIndex((v) => v !== undefined)];
    return part && structuredClone(part);
  }

  /** The session's filenames and the user's `user:` filenames, sorted. */
  async listArtifactKeys(request: Omit<ArtifactLocation, 'filename'>): Promise<string[]> {
    const live = (files: Map<string, Array<Part | undefined>> | undefined) => [...(files ?? [])].filter(([, versions]) => versions.some((v) => v !== undefined)).map(([name]) => name);
    return [...live(this.artifacts.get(artifactScope({ ...request, filename: '' }))), ...live(this.artifacts.get(artifactScope({ ...request, filename: 'user:' })))].sort();
  }

  /** The file's version numbers, ascending; empty when it has none. */
  async listVersions(request: ArtifactLocation): Promise<number[]> {
    const versions: number[] = [];
    (this.artifacts.get(artifactScope(request))?.get(request.filename) ?? []).forEach((part, i) => part !== undefined && versions.push(i));
    return versions;
  }

  /** Forgets one version; does nothing when there is no such version. A file without versions is not listed. */
  async deleteArtifactVersion(request: ArtifactLocation & { version: number }): Promise<void> {
    const files = this.artifacts.get(artifactScope(request));
    const versions = files?.get(request.filename);
    if (!versions || versions[request.version] === undefined) return;
    versions[request.version] = undefined; // the file stays, without live versions: its numbers are not given out again
  }

  /** Forgets the file with all its versions; does nothing when there is none. */
  async deleteArtifact(request: ArtifactLocation): Promise<void> {
    this.artifacts.get(artifactScope(request))?.delete(request.filename);
  }
}
