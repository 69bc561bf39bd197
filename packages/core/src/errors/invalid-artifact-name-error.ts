import { ToolsmithError } from './toolsmith-error';

/** An artifact filename (or the app, user or session id it is stored under) cannot be used as a storage key. */
export class InvalidArtifactNameError extends ToolsmithError {
  constructor(field: string, value: string) {
    super(
      'INVALID_ARTIFACT_NAME',
      `Artifact ${field} ${JSON.stringify(value)} is not allowed: it must be non-empty and not "." or "..".`,
    );
  }
}
