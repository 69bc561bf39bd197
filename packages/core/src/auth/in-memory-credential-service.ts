import type { AuthCredential } from './auth-credential';
import { type CredentialKey, type CredentialService, PENDING_AUTHORIZATION_TTL_MS, type PendingAuthorization } from './credential-service';

/**
 * A {@link CredentialService} in process memory: for tests and single-process apps. Credentials are
 * lost on restart (users are asked again); use a persistent service (e.g. from `@toolsmith/postgres`) otherwise.
 */
export class InMemoryCredentialService implements CredentialService {
  private readonly credentials = new Map<string, AuthCredential>();
  private readonly pending = new Map<string, PendingAuthorization>();

  /** A copy of the stored credential, or `undefined`. */
  async loadCredential(key: CredentialKey): Promise<AuthCredential | undefined> {
    const credential = this.credentials.get(keyText(key));
    return credential ? { ...credential } : undefined;
  }

  /** Stores a copy of the credential, replacing any under the same key. */
  async saveCredential(key: CredentialKey, credential: AuthCredential): Promise<void> {
    this.credentials.set(keyText(key), { ...credential });
  }

  /** Forgets the credential; does nothing when there is none. */
  async deleteCredential(key: CredentialKey): Promise<void> {
    this.credentials.delete(keyText(key));
  }

  /** Keeps a copy of the authorization under its `state` until taken, and forgets those older than `PENDING_AUTHORIZATION_TTL_MS`. */
  async savePendingAuthorization(pending: PendingAuthorization): Promise<void> {
    const oldest = Date.now() - PENDING_AUTHORIZATION_TTL_MS;
    for (const [state, started] of this.pending) if (started.createdAt < oldest) this.pending.delete(state);
    this.pending.set(pending.state, { ...pending, key: { ...pending.key } });
  }

  /** Returns and forgets the authorization started with `state`, in one synchronous step so it is redeemed once; else `undefined`. */
  async takePendingAuthorization(state: string): Promise<PendingAuthorization | undefined> {
    const found = this.pending.get(state);
    this.pending.delete(state);
    return found;
  }
}

// JSON of a tuple: no separator inside an app or user name can make two keys collide.
const keyText = (key: CredentialKey): string => JSON.stringify([key.appName, key.userId, key.authConfigId]);
