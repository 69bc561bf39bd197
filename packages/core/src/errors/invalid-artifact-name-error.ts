import { ToolsmithError } from './toolsmith-error';

/** An artifact filename (or the app, user or session id it is stored under) cannot be used as a storage key. */
export class InvalidArtifactNameError extends ToolsmithError {
  constructor(field: string, value: string, reason = 'it must be non-empty and not "." or ".."') {
    super('INVALID_ARTIFACT_NAME', `Artifact ${field} ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)} is not allowed: ${reason}.`, {
      details: { field, reason },
    });
  }
}

/** A `FileArtifactService` path meets a symbolic link or a hard-linked version file under its root; nothing outside it was read or written. */
export class ArtifactOutsideRootError extends ToolsmithError {
  constructor(
    /** The storage path refused: where a symbolic link or a hard-linked file stands under the root. */
    readonly path: string,
  ) {
    super('ARTIFACT_OUTSIDE_ROOT', `Artifact storage path "${path}" is not a plain directory or file under the artifact root (a symbolic link, or a hard-linked version file); refused.`, { details: { path } });
  }
}
