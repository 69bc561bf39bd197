import { InvalidArtifactNameError } from '../errors/invalid-artifact-name-error';
import { ArtifactLocation } from './artifact-service';

/** True when a filename is shared by all sessions of the user (`user:` prefix). */
export const isUserArtifact = (filename: string): boolean => filename.startsWith('user:');

/** The storage path segments of a location: app, user, and the session id or `user` for user-scoped files. */
export function artifactSegments(location: ArtifactLocation): [string, string, string] {
  for (const [field, value] of [['appName', location.appName], ['userId', location.userId], ['sessionId', location.sessionId]] as const) {
    checkSegment(field, value);
  }
  return [location.appName, location.userId, isUserArtifact(location.filename) ? '\u0000user' : location.sessionId];
}

/** One string key for the scope a filename lives in. */
export function artifactScope(location: ArtifactLocation): string {
  return artifactSegments(location).join('\u0001');
}

/** Refuses names that are empty or would navigate a file system (`.`, `..`). */
export function checkSegment(field: string, value: string): void {
  if (!value || value === '.' || value === '..') throw new InvalidArtifactNameError(field, value);
}
