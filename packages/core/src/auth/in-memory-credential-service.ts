import type { AuthCredential } from './auth-credential';
import type { CredentialKey, CredentialService, PendingAuthorization } from './credential-service';

/**
 * A {@link CredentialService} in process memory: for tests and single-process apps. Credentials are
 * lost on restart (users are asked again); use a persistent service (e.g. from `@toolsmith/postgres`) otherwise.
 */
export class InMemoryCredentialService implements CredentialService {
  private readonly credentials = new Map<string, AuthCredential>();
  private readonly pending = new Map<string, PendingAuthorization>();

  async loadCredential(key: CredentialKey): Promise<AuthCredential | undefined> {
    const credential = this.credentials.get(keyText(key));
    return credential ? { ...credential } : undefined;
  }

  async saveCredential(key: CredentialKey, credential: AuthCredential): Promise<void> {
    this.credentials.set(keyText(key), { ...credential });
  }

  async deleteCredential(key: CredentialKey): Promise<void> {
    this.credentials.delete(keyText(key));
  }

  async savePendingAuthorization(pending: PendingAuthorization): Promise<void> {
    this.pending.set(pending.state, { ...pending, key: { ...pending.key } });
  }

  async takePendingAuthorization(state: string): Promise<PendingAuthorization | undefined> {
    const found = this.pending.get(state);
    this.pending.delete(state);
    return found;
  }
}

// JSON of a tuple: no separator inside an app or user name can make two keys collide.
const keyText = (key: CredentialKey): string => JSON.stringify([key.appName, key.userId, key.authConfigId]);
