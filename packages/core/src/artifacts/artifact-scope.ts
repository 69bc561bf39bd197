import { InvalidArtifactNameError } from '../errors/invalid-artifact-name-error';
import { unfitIdentifierCharacter, withoutLoneSurrogates } from '../identifiers/identifier-characters';
import type { ArtifactLocation } from './artifact-service';

/** True when a filename is shared by all sessions of the user (`user:` prefix). */
export const isUserArtifact = (filename: string): boolean => filename.startsWith('user:');

/** The storage path segments of a location: app, user, and the session id or `user` for user-scoped files. */
export function artifactSegments(location: ArtifactLocation): [string, string, string] {
  for (const [field, value] of [['appName', location.appName], ['userId', location.userId], ['sessionId', location.sessionId]] as const) {
    checkSegment(field, value);
  }
  return [location.appName, location.userId, isUserArtifact(location.filename) ? '\u0000user' : location.sessionId];
}

/** One string key for the scope a filename lives in; unambiguous whatever characters the segments hold. */
export function artifactScope(location: ArtifactLocation): string {
  return JSON.stringify(artifactSegments(location));
}

/** Longest segment, in characters of its URI-encoded form (a file name on most file systems: 255 bytes). */
export const MAX_ARTIFACT_SEGMENT_CHARS = 255;

/**
 * Refuses names no store can keep safely: empty, `.` or `..`, not well-formed Unicode (a lone
 * surrogate), with control characters, or longer than {@link MAX_ARTIFACT_SEGMENT_CHARS} once encoded.
 * Both artifact services check every segment here, so they refuse the same names with the same error.
 */
export function checkSegment(field: string, value: string): void {
  if (typeof value !== 'string' || !value || value === '.' || value === '..') throw new InvalidArtifactNameError(field, String(value));
  const unfit = unfitIdentifierCharacter(value);
  if (unfit === 'lone surrogate') throw new InvalidArtifactNameError(field, withoutLoneSurrogates(value), 'it is not well-formed Unicode (a lone surrogate)');
  if (unfit === 'control character') throw new InvalidArtifactNameError(field, value, 'it contains control characters');
  if (encodeURIComponent(value).length > MAX_ARTIFACT_SEGMENT_CHARS) {
    throw new InvalidArtifactNameError(field, value, `it is longer than ${MAX_ARTIFACT_SEGMENT_CHARS} characters once encoded`);
  }
}
