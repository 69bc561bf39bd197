import {
  authConfigInvalidMessage,
  authStateMismatchMessage,
  credentialServiceMissingMessage,
  invalidCredentialAnswerMessage,
  tokenRequestFailedMessage,
} from './messages';
import { ToolsmithError } from './toolsmith-error';

/** Codes of the errors of tool authentication. */
export type AuthErrorCode =
  | 'INVALID_CREDENTIAL_ANSWER'
  | 'AUTH_STATE_MISMATCH'
  | 'AUTH_TOKEN_REQUEST_FAILED'
  | 'AUTH_CONFIG_INVALID'
  | 'CREDENTIAL_SERVICE_MISSING';

/**
 * An answer to a `toolsmith_request_credential` request is malformed: wrong name, no redirect URL, code
 * or credential, or a credential of the wrong kind. Nothing ran.
 */
export class InvalidCredentialAnswerError extends ToolsmithError {
  constructor(
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
  constructor(readonly requestId: string) {
    super('AUTH_STATE_MISMATCH', authStateMismatchMessage(requestId), { details: { requestId } });
  }
}

/**
 * The token endpoint refused or failed a request (code exchange, refresh, client credentials). `oauthError`
 * is the server's `error` code (e.g. `invalid_grant` for a revoked refresh token) when it sent one.
 */
export class TokenRequestError extends ToolsmithError {
  constructor(
    readonly tokenUrl: string,
    readonly grantType: string,
    readonly status: number | undefined,
    readonly oauthError: string | undefined,
    options: { description?: string; cause?: unknown } = {},
  ) {
    super('AUTH_TOKEN_REQUEST_FAILED', tokenRequestFailedMessage(tokenUrl, grantType, status, oauthError, options.description), {
      details: { tokenUrl, grantType, status, oauthError },
      cause: options.cause,
    });
  }
}

/** An {@link AuthConfig} lacks what its scheme needs (e.g. OAuth2 without a token URL). */
export class AuthConfigInvalidError extends ToolsmithError {
  constructor(problem: string) {
    super('AUTH_CONFIG_INVALID', authConfigInvalidMessage(problem));
  }
}

/** A tool asked for a credential but the runner (or serveMcp) was given no `credentialService`. */
export class CredentialServiceMissingError extends ToolsmithError {
  constructor(method: string) {
    super('CREDENTIAL_SERVICE_MISSING', credentialServiceMissingMessage(method));
  }
}
