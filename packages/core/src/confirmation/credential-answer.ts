import { isAuthorizationCodeScheme } from '../auth/auth-config';
import type { AuthCredential } from '../auth/auth-credential';
import { parseRedirectUrl } from '../auth/oauth2-client';
import type { CredentialRequestRecord } from '../auth/request-credential';
import { AuthStateMismatchError, InvalidCredentialAnswerError } from '../errors/auth-errors';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { isRecord } from './request-confirmation';

/** What an answer to a credential request says, once checked against the request the runner recorded. */
export type CredentialAnswer =
  /** The user declined (or the authorization server redirected with an `error`): the tool gets `TOOL_CALL_REJECTED`. */
  | { kind: 'cancelled' }
  /** An OAuth2 authorization code, its `state` already compared with the request's. */
  | { kind: 'code'; code: string; state: string }
  /** A credential the user typed in (API key, bearer token, basic). */
  | { kind: 'credential'; credential: AuthCredential };

/**
 * Reads the `response` of an answer to the credential request `requestId`: `{ redirectUrl }` or
 * `{ code, state }` for OAuth2 / OpenID Connect, `{ credential }` for the other schemes, or
 * `{ cancelled: true }`. Returns a typed error when it is malformed or its `state` is not the request's.
 */
export function readCredentialAnswer(requestId: string, record: CredentialRequestRecord, response: unknown): CredentialAnswer | ToolsmithError {
  if (!isRecord(response)) return new InvalidCredentialAnswerError(requestId, 'its response must be an object like { "redirectUrl": "..." }');
  if (response.cancelled === true) return { kind: 'cancelled' };
  if (isAuthorizationCodeScheme(record.authConfig.scheme)) return readCode(requestId, record, response);
  const credential = response.credential;
  if (!isRecord(credential)) return new InvalidCredentialAnswerError(requestId, 'it needs "credential" (e.g. { "apiKey": "..." }) or "cancelled": true');
  const wanted: Record<string, string[]> = { apiKey: ['apiKey'], httpBearer: ['token'], httpBasic: ['username', 'password'] };
  const fields = wanted[record.authConfig.scheme];
  if (!fields) return new InvalidCredentialAnswerError(requestId, `scheme "${record.authConfig.scheme}" takes no credential from the user`);
  const given: AuthCredential = {};
  for (const field of fields) {
    const value = credential[field];
    if (typeof value !== 'string' || value === '') return new InvalidCredentialAnswerError(requestId, `"credential.${field}" must be a non-empty string`);
    (given as Record<string, string>)[field] = value;
  }
  return { kind: 'credential', credential: given };
}

function readCode(requestId: string, record: CredentialRequestRecord, response: Record<string, unknown>): CredentialAnswer | ToolsmithError {
  let code: unknown = response.code;
  let state: unknown = response.state;
  if (typeof response.redirectUrl === 'string') {
    const parsed = parseRedirectUrl(response.redirectUrl);
    if (!parsed) return new InvalidCredentialAnswerError(requestId, '"redirectUrl" is not a URL');
    state = parsed.state;
    // The server's own refusal (e.g. access_denied) is the user's "no"; its state must still match.
    if (parsed.error !== undefined && parsed.code === undefined) {
      return state === record.state ? { kind: 'cancelled' } : new AuthStateMismatchError(requestId);
    }
    code = parsed.code;
  }
  if (typeof code !== 'string' || code === '') return new InvalidCredentialAnswerError(requestId, 'it needs "redirectUrl", or "code" and "state"');
  if (typeof state !== 'string' || record.state === undefined || state !== record.state) return new AuthStateMismatchError(requestId);
  return { kind: 'code', code, state };
}
