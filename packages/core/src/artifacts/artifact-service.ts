import type { Part } from '../model/content';

/** Where an artifact lives. A filename starting with `user:` is shared by all sessions of the user. */
export interface ArtifactLocation {
  /** The app the artifact belongs to (the runner's `appName`). */
  appName: string;
  /** The user who owns the artifact. */
  userId: string;
  /** The session the artifact is attached to; not part of where a `user:` file is kept. */
  sessionId: string;
  /** The artifact's name, kept as one key (a `/` makes no folder); with a `user:` prefix the file is shared by all the user's sessions. */
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
  /** The versions stored for the file, ascending; empty when it has none. */
  listVersions(request: ArtifactLocation): Promise<number[]>;
  /**
   * Deletes one version of the file (the others keep their numbers); does nothing when there is no such
   * version. Toolsmith deletes the versions a cancelled call saved.
   */
  deleteArtifactVersion(request: ArtifactLocation & { version: number }): Promise<void>;
  /** Deletes the file with all its versions; does nothing when there is none. */
  deleteArtifact(request: ArtifactLocation): Promise<void>;
}
