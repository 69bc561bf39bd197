import type { InvocationContext } from '../agents/invocation-context';
import { readCredentialAnswer } from '../confirmation/credential-answer';
import type { PendingConfirmation } from '../confirmation/pending-calls';
import { reportableError } from '../errors/reportable-error';
import { redactSecretText } from '../redaction/secret-redaction';
import type { ToolConfirmation } from '../state/event-actions';

/**
 * Acts on the user's answer to a credential request before its call runs again: exchanges an OAuth2
 * code (the `state` was checked when the message arrived; here it is redeemed, once). A typed-in
 * credential was saved before the message was stored (see saveTypedCredentials). Returns the call's
 * confirmation: denied when the user cancelled, else confirmed. A failed exchange (or tokens the
 * credential service failed to save: the code is spent) stores nothing: the call runs, finds no
 * credential and asks again (the new request carries the failure as `error`).
 */
export async function credentialConfirmation(context: InvocationContext, record: PendingConfirmation, response: unknown): Promise<ToolConfirmation> {
  const auth = record.auth!;
  const answer = readCredentialAnswer(record.requestId, auth, response);
  if (!('kind' in answer) || answer.kind === 'cancelled') return { confirmed: false };
  if (answer.kind === 'credential') return { confirmed: true };
  const credentials = context.services.credentials;
  if (!credentials) return { confirmed: true }; // the call then fails with CREDENTIAL_SERVICE_MISSING, which says what to do
  const owner = { appName: context.services.appName, userId: context.session.userId };
  try {
    await credentials.completeCode(owner, answer.code, answer.state);
  } catch (error) {
    // Only a Toolsmith error that can be reported as it is goes into the session (anything else fails the run).
    const reported = reportableError(error);
    if (!reported) throw error;
    // The token endpoint refused the code, or its tokens could not be saved: asking again (the call's own next step) is the recovery,
    // and the new request says why (see ToolContext.requestCredential).
    return { confirmed: true, payload: { authError: { code: reported.code, message: redactSecretText(reported.message) } } };
  }
  return { confirmed: true };
}
