import { isAuthorizationCodeScheme } from '../auth/auth-config';
import type { AuthCredential } from '../auth/auth-credential';
import { parseRedirectUrl } from '../auth/oauth2-client';
import type { CredentialRequestRecord } from '../auth/request-credential';
import { AuthStateMismatchError, InvalidCredentialAnswerError } from '../errors/auth-errors';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { redactSecretText } from '../redaction/secret-redaction';
import { isRecord } from './request-confirmation';

/** What an answer to a credential request says, once checked against the request the runner recorded. */
export type CredentialAnswer =
  /** The user declined (or the authorization server redirected with an `error`): the tool gets `TOOL_CALL_REJECTED`. */
  | { kind: 'cancelled' }
  /** An OAuth2 authorization code, its `state` already compared with the request's. */
  | { kind: 'code'; code: string; state: string }
  /** A credential the user typed in (API key, bearer token, basic). */
  | { kind: 'credential'; credential: AuthCredential };

/** The fields of the credential a user types in, per scheme (the `credential` of `{ credential }`). */
const TYPED_FIELDS: Readonly<Record<string, readonly string[]>> = { apiKey: ['apiKey'], httpBearer: ['token'], httpBasic: ['username', 'password'] };

/**
 * Reads the `response` of an answer to the credential request `requestId`: `{ redirectUrl }` or
 * `{ code, state }` for OAuth2 / OpenID Connect, `{ credential }` for the other schemes, or
 * `{ cancelled: true }`. Returns a typed error when it is malformed, has a member outside its shape (a
 * sibling of `credential`, a field the scheme's credential does not take: nothing else of an answer is
 * ever stored or redacted, so nothing else is accepted; every such member is named, no value is quoted),
 * or its `state` is not the request's.
 */
export function readCredentialAnswer(requestId: string, record: CredentialRequestRecord, response: unknown): CredentialAnswer | ToolsmithError {
  if (!isRecord(response)) return new InvalidCredentialAnswerError(requestId, 'its response must be an object like { "redirectUrl": "..." }');
  if (response.cancelled === true) return onlyMembers(requestId, response, ['cancelled'], '{ "cancelled": true }') ?? { kind: 'cancelled' };
  if (isAuthorizationCodeScheme(record.authConfig.scheme)) return readCode(requestId, record, response);
  const fields = TYPED_FIELDS[record.authConfig.scheme];
  if (!fields) return new InvalidCredentialAnswerError(requestId, `scheme "${record.authConfig.scheme}" takes no credential from the user`);
  const credential = response.credential;
  if (!isRecord(credential)) return new InvalidCredentialAnswerError(requestId, 'it needs "credential" (e.g. { "apiKey": "..." }) or "cancelled": true');
  const problems: string[] = [];
  const outside = membersOutside(response, ['credential']);
  if (outside) problems.push(`it has members beside "credential" (${outside}); an answer is { "credential": { ${fields.map((field) => `"${field}"`).join(', ')} } } alone`);
  const given: AuthCredential = {};
  for (const field of fields) {
    const value = credential[field];
    if (typeof value !== 'string' || value === '') problems.push(`"credential.${field}" must be a non-empty string`);
    else (given as Record<string, string>)[field] = value;
  }
  const extra = membersOutside(credential, fields);
  if (extra) problems.push(`"credential" has fields the ${record.authConfig.scheme} scheme does not take (${extra})`);
  if (problems.length > 0) return new InvalidCredentialAnswerError(requestId, problems.join('; '));
  return { kind: 'credential', credential: given };
}

/** A refusal when `response` has members outside `allowed` (the one shape `shape` of its kind), else `undefined`. */
function onlyMembers(requestId: string, response: Record<string, unknown>, allowed: readonly string[], shape: string): ToolsmithError | undefined {
  const outside = membersOutside(response, allowed);
  return outside ? new InvalidCredentialAnswerError(requestId, `it has members outside ${shape} (${outside})`) : undefined;
}

/** What a member name may look like to be quoted in a refusal: an identifier (a name that is a pasted secret is only counted). */
const SHOWN_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/**
 * The members of `value` outside `allowed`, named for a refusal (values never are), or `undefined` when
 * there are none. A member that is `undefined` or `null` counts as absent (JSON clients write absent
 * fields as null; it carries nothing). Names that are no plain identifier are counted, not quoted.
 */
function membersOutside(value: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const named: string[] = [];
  let unnamed = 0;
  for (const name of Object.keys(value)) {
    if (allowed.includes(name) || value[name] === undefined || value[name] === null) continue;
    if (SHOWN_NAME.test(name) && redactSecretText(name) === name) named.push(`"${name}"`);
    else unnamed++;
  }
  if (unnamed > 0) named.push(`${unnamed} member${unnamed === 1 ? '' : 's'} whose name is not shown`);
  return named.length > 0 ? named.join(', ') : undefined;
}

function readCode(requestId: string, record: CredentialRequestRecord, response: Record<string, unknown>): CredentialAnswer | ToolsmithError {
  let code: unknown = response.code;
  let state: unknown = response.state;
  if (typeof response.redirectUrl === 'string') {
    const misplaced = onlyMembers(requestId, response, ['redirectUrl'], '{ "redirectUrl": "..." }');
    if (misplaced) return misplaced;
    const parsed = parseRedirectUrl(response.redirectUrl);
    if (!parsed) return new InvalidCredentialAnswerError(requestId, '"redirectUrl" is not a URL');
    state = parsed.state;
    // The server's own refusal (e.g. access_denied) is the user's "no"; its state must still match.
    if (parsed.error !== undefined && parsed.code === undefined) {
      return state === record.state ? { kind: 'cancelled' } : new AuthStateMismatchError(requestId);
    }
    code = parsed.code;
  } else {
    const misplaced = onlyMembers(requestId, response, ['code', 'state'], '{ "code": "...", "state": "..." }');
    if (misplaced) return misplaced;
  }
  if (typeof code !== 'string' || code === '') return new InvalidCredentialAnswerError(requestId, 'it needs "redirectUrl", or "code" and "state"');
  if (typeof state !== 'string' || record.state === undefined || state !== record.state) return new AuthStateMismatchError(requestId);
  return { kind: 'code', code, state };
}
