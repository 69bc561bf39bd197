import type { AuthCredential } from '../auth/auth-credential';
import { REQUEST_CREDENTIAL } from '../auth/request-credential';
import type { Content } from '../model/content';
import type { CredentialRequest } from './credential-requests';
import type { PendingConfirmation } from './pending-calls';

/**
 * The user's answer to a credential request: the URL the authorization server redirected to (or its
 * `code` and `state`) for OAuth2 / OpenID Connect; the credential itself for an API key, bearer token
 * or basic credentials; or `cancelled`.
 */
export type CredentialAnswerInput = { redirectUrl: string } | { code: string; state: string } | { credential: AuthCredential } | { cancelled: true };

/**
 * Builds the message answering a `toolsmith_request_credential` call: a user `Content` with one
 * function response of the request's id and name. Send it as `newMessage` of the next `runner.run`.
 *
 * @example
 * ```ts
 * const [request] = credentialRequests(event);
 * // the user signs in at request.authConfig.authUri; the app's callback receives the redirect:
 * const newMessage = credentialResponse(request, { redirectUrl: callbackUrl });
 * ```
 */
export function credentialResponse(request: CredentialRequest | PendingConfirmation, answer: CredentialAnswerInput): Content {
  const id = 'requestId' in request ? request.requestId : request.call.id;
  return { role: 'user', parts: [{ functionResponse: { id, name: REQUEST_CREDENTIAL, response: { ...answer } } }] };
}
