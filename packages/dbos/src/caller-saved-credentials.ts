import type { AuthCredential, CredentialKey, CredentialService, PendingAuthorization } from '@toolsmith/core';
import { CALLER_SAVED_CREDENTIALS, REDACTED } from '@toolsmith/core/internal';
import { inWorkflow } from './in-workflow';

/**
 * The credential service of a durable run's runner: the app's, except that a credential the user typed
 * in is not saved again inside the workflow. {@link DurableRunner} saves it in the caller's process,
 * before the answer reaches DBOS, and hands the workflow the answer with its values `[redacted]`, which
 * the runner would otherwise save in its place.
 */
export class CallerSavedCredentials implements CredentialService {
  readonly updateCredential?: CredentialService['updateCredential'];

  constructor(private readonly inner: CredentialService) {
    if (inner.updateCredential) this.updateCredential = (key, update) => inner.updateCredential!(key, update);
  }

  /** Inside a workflow, the typed-in credentials of its answer were saved by the caller: the runner takes their `[redacted]` copy. */
  [CALLER_SAVED_CREDENTIALS](): boolean {
    return inWorkflow();
  }

  loadCredential(key: CredentialKey): Promise<AuthCredential | undefined> {
    return this.inner.loadCredential(key);
  }

  async saveCredential(key: CredentialKey, credential: AuthCredential): Promise<void> {
    if (inWorkflow() && isRedacted(credential)) return; // saved by the caller (see DurableRunner's answers)
    await this.inner.saveCredential(key, credential);
  }

  deleteCredential(key: CredentialKey): Promise<void> {
    return this.inner.deleteCredential(key);
  }

  savePendingAuthorization(pending: PendingAuthorization): Promise<void> {
    return this.inner.savePendingAuthorization(pending);
  }

  takePendingAuthorization(state: string): Promise<PendingAuthorization | undefined> {
    return this.inner.takePendingAuthorization(state);
  }
}

/** A typed-in credential as the runner stores its answer: every value `[redacted]`. */
function isRedacted(credential: AuthCredential): boolean {
  const values = Object.values(credential);
  return values.length > 0 && values.every((value) => value === REDACTED);
}
