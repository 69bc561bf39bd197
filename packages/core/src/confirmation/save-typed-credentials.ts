import { CredentialManager } from '../auth/credential-manager';
import type { CredentialService } from '../auth/credential-service';
import type { EventData } from '../events/event';
import { readCredentialAnswer } from './credential-answer';
import { findPendingCalls } from './pending-calls';
import type { WithheldCredentials } from './withhold-credentials';

/**
 * Saves with `service` the credentials a user's message types in (`{ credential: … }` answers, as
 * {@link withholdCredentials} took them out), each under the auth config of the pending request it
 * answers. The runner does it once the message is checked and before it is stored, so a save that fails
 * stores nothing of the answer (its request stays pending); a caller that must save them before the
 * message goes anywhere else does it too (DurableRunner: DBOS keeps what it is handed). `events` is the
 * session the message was checked against with `checkFunctionResponses`, which refused anything else;
 * an answer that answers no pending credential request saves nothing. Throws `CredentialSaveFailedError`
 * (`CREDENTIAL_SAVE_FAILED`, the credential's values redacted from its message) when the service fails.
 */
export async function saveTypedCredentials(
  service: CredentialService,
  owner: { appName: string; userId: string },
  events: readonly EventData[],
  withheld: Pick<WithheldCredentials, 'answers'>,
): Promise<void> {
  const pending = findPendingCalls(events).confirmations;
  const manager = new CredentialManager(service);
  for (const [requestId, response] of withheld.answers) {
    const auth = pending.get(requestId)?.auth;
    if (!auth) continue;
    const answer = readCredentialAnswer(requestId, auth, response);
    if ('kind' in answer && answer.kind === 'credential') await manager.store(owner, auth.authConfig, answer.credential, requestId);
  }
}
