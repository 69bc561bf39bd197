import type { FunctionCall } from '../model/content';
import type { AuthConfig } from './auth-config';

/**
 * Name of the function call the runner emits when a tool call needs a credential the user must supply.
 *
 * Its `args` are {@link CredentialRequestArgs}: `originalFunctionCall` (the call that did not run) and
 * `authConfig` (the scheme and OAuth2 client without secrets, with `authUri` for OAuth2 / OpenID
 * Connect). The event carrying it lists its id in `longRunningToolIds` and ends the invocation. A client must:
 * 1. find the requests in the run's events with `credentialRequests(event)` (only the runner's own are listed);
 * 2. for OAuth2, send the user to `authConfig.authUri`; for an API key or token, ask for it;
 * 3. send, as the next `newMessage`, a function response with the SAME id, this name and
 *    `{ redirectUrl }` (or `{ code, state }`), `{ credential }`, or `{ cancelled: true }`
 *    (build it with `credentialResponse`).
 *
 * Toolsmith checks the `state`, exchanges the code (PKCE) at the token endpoint, stores the credential
 * in the runner's `credentialService` and runs the original call again. Answers that match no pending
 * request, a wrong `state`, or a second answer are refused with an error event and nothing runs.
 */
export const REQUEST_CREDENTIAL = 'toolsmith_request_credential';

/** What Toolsmith records when a tool asks for a credential: the config the client sees, and the `state` to check. */
export interface CredentialRequestRecord {
  /** The config without secrets, with `authUri` for the authorization code schemes. */
  authConfig: AuthConfig;
  /** The `state` of `authUri`; an answer must carry it back. */
  state?: string;
  /** Why the user is asked again: the previous answer's code was refused by the token endpoint. */
  error?: { code: string; message: string };
}

/** The `args` of a {@link REQUEST_CREDENTIAL} function call. */
export interface CredentialRequestArgs {
  /** The call that is waiting: its id, tool name and arguments. */
  originalFunctionCall: FunctionCall;
  /** What to obtain: no secrets, with `authUri` for the authorization code schemes. */
  authConfig: AuthConfig;
  /** Set when this asks again because the previous answer failed (e.g. `AUTH_TOKEN_REQUEST_FAILED`). */
  error?: { code: string; message: string };
}

/**
 * True when `call` is named {@link REQUEST_CREDENTIAL}. The name alone does not make a request (a model
 * can write one); `credentialRequests(event)` lists only the runner's own.
 */
export function isCredentialRequest(call: Pick<FunctionCall, 'name'>): boolean {
  return call.name === REQUEST_CREDENTIAL;
}
