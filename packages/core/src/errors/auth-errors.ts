import {
  authConfigInvalidMessage,
  authStateMismatchMessage,
  authorizationExpiredMessage,
  credentialDecryptFailedMessage,
  credentialSaveFailedMessage,
  credentialServiceMissingMessage,
  invalidCredentialAnswerMessage,
  responseTimeoutMessage,
  responseTooLargeMessage,
  tokenEndpointUnavailableMessage,
  tokenRequestFailedMessage,
} from './messages';
import { endpointOf } from './endpoint-of';
import { thrownMessage } from './thrown-message';
import { redactKnownSecrets } from '../redaction/secret-redaction';
import { ToolsmithError } from './toolsmith-error';

/** Codes of the errors of tool authentication. */
export type AuthErrorCode =
  | 'INVALID_CREDENTIAL_ANSWER'
  | 'AUTH_STATE_MISMATCH'
  | 'AUTH_TOKEN_REQUEST_FAILED'
  | 'AUTH_TOKEN_ENDPOINT_UNAVAILABLE'
  | 'AUTH_AUTHORIZATION_EXPIRED'
  | 'AUTH_CONFIG_INVALID'
  | 'AUTH_RESPONSE_TOO_LARGE'
  | 'AUTH_RESPONSE_TIMEOUT'
  | 'CREDENTIAL_SERVICE_MISSING'
  | 'CREDENTIAL_SAVE_FAILED'
  | 'CREDENTIAL_DECRYPT_FAILED';

/**
 * An answer to a `toolsmith_request_credential` request is malformed: wrong name, members other than
 * `id`, `name` and `response`, no redirect URL, code or credential, or a credential of the wrong kind.
 * Nothing ran.
 */
export class InvalidCredentialAnswerError extends ToolsmithError {
  constructor(
    /** The id of the credential request (the `toolsmith_request_credential` call) the answer was for. */
    readonly requestId: string,
    problem: string,
  ) {
    super('INVALID_CREDENTIAL_ANSWER', invalidCredentialAnswerMessage(requestId, problem), { details: { requestId } });
  }
}

/**
 * The `state` of an OAuth2 answer is not the one Toolsmith put in the authorization URL of that request:
 * the redirect belongs to another authorization (or was forged). Nothing ran and no code was exchanged.
 */
export class AuthStateMismatchError extends ToolsmithError {
  constructor(
    /** The id of the credential request (the `toolsmith_request_credential` call) the answer was for. */
    readonly requestId: string,
  ) {
    super('AUTH_STATE_MISMATCH', authStateMismatchMessage(requestId), { details: { requestId } });
  }
}

/**
 * The token endpoint refused or failed a request (code exchange, refresh, client credentials). `oauthError`
 * is the server's `error` code (e.g. `invalid_grant` for a revoked refresh token) when it sent one.
 */
export class TokenRequestError extends ToolsmithError {
  constructor(
    /** The token endpoint that was called. */
    readonly tokenUrl: string,
    /** The `grant_type` of the request: `authorization_code`, `refresh_token` or `client_credentials`. */
    readonly grantType: string,
    /** The HTTP status of the answer; `undefined` when the request failed before one came (network error). */
    readonly status: number | undefined,
    /** The server's OAuth `error` code (`no access_token` for a success without a token); `undefined` when it sent none. */
    readonly oauthError: string | undefined,
    options: { description?: string; cause?: unknown } = {},
  ) {
    super('AUTH_TOKEN_REQUEST_FAILED', tokenRequestFailedMessage(tokenUrl, grantType, status, oauthError, options.description), {
      // Details reach the model and the session: the endpoint without its query or user info, like the message.
      details: { tokenUrl: endpointOf(tokenUrl), grantType, status, oauthError },
      cause: options.cause,
    });
  }
}

/**
 * The token endpoint could not answer a refresh right now: it was unreachable, or answered 5xx, 429 or
 * 408. The stored credential is kept; the call fails with this error and may be tried again later
 * (`isRetryable` is always true).
 */
export class TokenEndpointUnavailableError extends ToolsmithError {
  /** Always `true`: the same call may succeed later, with the credential still stored. */
  readonly isRetryable = true;

  constructor(
    /** The token endpoint that was called. */
    readonly tokenUrl: string,
    /** The HTTP status of the answer; `undefined` when the request failed before one came (network error). */
    readonly status: number | undefined,
    options: { cause?: unknown } = {},
  ) {
    super('AUTH_TOKEN_ENDPOINT_UNAVAILABLE', tokenEndpointUnavailableMessage(tokenUrl, status), { details: { tokenUrl: endpointOf(tokenUrl), status }, cause: options.cause });
  }
}

/**
 * The user came back from the authorization server after the authorization expired (see
 * `PENDING_AUTHORIZATION_TTL_MS`), or with a `state` whose authorization was already cleaned up: no code
 * was exchanged, and the user is asked again.
 */
export class AuthorizationExpiredError extends ToolsmithError {
  constructor(ttlMs: number) {
    super('AUTH_AUTHORIZATION_EXPIRED', authorizationExpiredMessage(ttlMs));
  }
}

/**
 * A stored credential (or an authorization in progress) cannot be read back: a credential service that
 * encrypts them (`PostgresCredentialService`) was given another key than the one they were written with,
 * or the row was altered or moved. Toolsmith deletes such a credential and asks the user again.
 */
export class CredentialDecryptError extends ToolsmithError {
  constructor(
    /** What could not be read: `credential` or `authorization`. */
    readonly what: string,
  ) {
    super('CREDENTIAL_DECRYPT_FAILED', credentialDecryptFailedMessage(what));
  }
}

/**
 * An authorization server's answer (metadata, registration, token) is larger than the limit: it was
 * not read past it, and the connection was dropped. Reported as the cause of the request's own error.
 */
export class ResponseTooLargeError extends ToolsmithError {
  constructor(
    /** The URL whose answer was too large. */
    readonly url: string,
    /** The limit, in bytes. */
    readonly maxBytes: number,
  ) {
    super('AUTH_RESPONSE_TOO_LARGE', responseTooLargeMessage(url, maxBytes), { details: { url, maxBytes } });
  }
}

/**
 * An authorization server (or an identity provider, or a protected resource's metadata) did not answer
 * in time: the request, its body included, was not over within the deadline, so it was aborted.
 * Reported as the cause of the request's own error.
 */
export class ResponseTimeoutError extends ToolsmithError {
  constructor(
    /** The endpoint that did not answer in time (origin and path, no query). */
    readonly url: string,
    /** The deadline, in milliseconds. */
    readonly timeoutMs: number,
  ) {
    super('AUTH_RESPONSE_TIMEOUT', responseTimeoutMessage(url, timeoutMs), { details: { url, timeoutMs } });
  }
}

/** An {@link AuthConfig} lacks what its scheme needs (e.g. OAuth2 without a token URL). */
export class AuthConfigInvalidError extends ToolsmithError {
  constructor(problem: string, fix?: string) {
    super('AUTH_CONFIG_INVALID', authConfigInvalidMessage(problem, fix));
  }
}

/** A tool asked for a credential but the runner (or serveMcp) was given no `credentialService`. */
export class CredentialServiceMissingError extends ToolsmithError {
  constructor(method: string) {
    super('CREDENTIAL_SERVICE_MISSING', credentialServiceMissingMessage(method));
  }
}

/**
 * The credential service failed to save a credential: one the user typed in (nothing of the answer was
 * stored, the request is still pending and the same answer can be sent again), or the tokens of an
 * authorization code just exchanged (the code is spent: the user is asked again). The message quotes the
 * service's error with every value of the credential (4 characters or more, in every encoded form) and
 * anything that looks like a secret redacted; the service's error itself is the `cause`, which no event,
 * span or session stores.
 */
export class CredentialSaveFailedError extends ToolsmithError {
  constructor(
    /** The config id the credential was to be stored under (`authConfigId`). */
    readonly authConfigId: string,
    /** The values of the credential that was being saved: redacted from the message. */
    secrets: readonly string[],
    cause: unknown,
    /** The credential request the answer was for, when it was a typed-in credential. */
    readonly requestId?: string,
  ) {
    const reason = redactKnownSecrets(thrownMessage(cause), secrets);
    super('CREDENTIAL_SAVE_FAILED', credentialSaveFailedMessage(authConfigId, reason.length > 500 ? `${reason.slice(0, 500)}…` : reason, requestId), {
      details: requestId === undefined ? { authConfigId } : { requestId, authConfigId },
      cause,
    });
  }
}
