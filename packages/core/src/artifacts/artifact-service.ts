import type { Part } from '../model/content';

/** Where an artifact lives. A filename starting with `user:` is shared by all sessions of the user. */
export interface ArtifactLocation {
  appName: string;
  userId: string;
  sessionId: string;
  filename: string;
}

/** Versioned binary or text files attached to a session. Versions count from 0. */
export interface ArtifactService {
  /** Stores a new version and returns its number. */
  saveArtifact(request: ArtifactLocation & { artifact: Part }): Promise<number>;
  /** The given version, else the latest; `undefined` when there is none. */
  loadArtifact(request: ArtifactLocation & { version?: number }): Promise<Part | undefined>;
  /** Filenames visible to the session (its own and the user's). */
  listArtifactKeys(request: Omit<ArtifactLocation, 'filename'>): Promise<string[]>;
  listVersions(request: ArtifactLocation): Promise<number[]>;
  deleteArtifact(request: ArtifactLocation): Promise<void>;
}
