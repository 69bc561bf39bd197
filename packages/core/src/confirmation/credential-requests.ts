import type { AuthConfig } from '../auth/auth-config';
import { isCredentialRequest } from '../auth/request-credential';
import type { EventData } from '../events/event';
import type { FunctionCall } from '../model/content';
import { isRunnerRequest } from './pending-calls';
import { isRecord, originalCallFrom } from './request-confirmation';

/** A credential request found in an event, ready to show to the user. */
export interface CredentialRequest {
  /** The `toolsmith_request_credential` call itself: its id is the one to answer. */
  call: FunctionCall;
  /** The tool call waiting for the credential. */
  originalFunctionCall: FunctionCall;
  /** What to obtain, without secrets; for OAuth2 / OpenID Connect `authUri` is the URL to open. */
  authConfig: AuthConfig;
  /** Why the user is asked again, when the previous answer failed (e.g. the token endpoint refused the code). */
  error?: { code: string; message: string };
}

/**
 * Lists the credential requests an event carries (none for most events), in call order. Only the
 * runner's own pause events carry requests: a `toolsmith_request_credential` call written by a model
 * (or placed in a user message) is not listed, and answering it would be refused.
 *
 * @example
 * ```ts
 * for await (const event of runner.run(input)) {
 *   for (const request of credentialRequests(event)) openInBrowser(request.authConfig.authUri);
 * }
 * ```
 */
export function credentialRequests(event: Pick<EventData, 'content' | 'author' | 'actions' | 'longRunningToolIds'>): CredentialRequest[] {
  const requests: CredentialRequest[] = [];
  const requested = event.actions?.requestedToolConfirmations;
  if (!requested) return requests; // not a pause event: most events
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (!call || !isCredentialRequest(call)) continue;
    let originalFunctionCall: FunctionCall;
    try {
      originalFunctionCall = originalCallFrom(call);
    } catch {
      continue;
    }
    if (!isRunnerRequest(event, call.id, originalFunctionCall.id)) continue;
    const recorded = requested[originalFunctionCall.id].auth;
    // The runner's record is the authority over what is asked; the call's args only repeat it.
    if (recorded && isRecord(recorded.authConfig)) {
      requests.push({ call, originalFunctionCall, authConfig: recorded.authConfig, ...(recorded.error ? { error: recorded.error } : {}) });
    }
  }
  return requests;
}
