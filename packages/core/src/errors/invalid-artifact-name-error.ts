import { ToolsmithError } from './toolsmith-error';

/** An artifact filename (or the app, user or session id it is stored under) cannot be used as a storage key. */
export class InvalidArtifactNameError extends ToolsmithError {
  constructor(field: string, value: string, reason = 'it must be non-empty and not "." or ".."') {
    super('INVALID_ARTIFACT_NAME', `Artifact ${field} ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)} is not allowed: ${reason}.`, {
      details: { field, reason },
    });
  }
}

/** A `FileArtifactService` path leads outside its root (a symbolic link planted under it); nothing was read or written. */
export class ArtifactOutsideRootError extends ToolsmithError {
  constructor(
    /** The storage path refused: a symbolic link under the root, or a path whose real location is outside it. */
    readonly path: string,
  ) {
    super('ARTIFACT_OUTSIDE_ROOT', `Artifact storage path "${path}" leads outside the artifact root (a symbolic link); refused.`, { details: { path } });
  }
}
