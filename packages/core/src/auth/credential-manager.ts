import { TokenRequestError } from '../errors/auth-errors';
import { type AuthConfig, authConfigId, isAuthorizationCodeScheme, publicAuthConfig } from './auth-config';
import { type AuthCredential, isCredentialExpired } from './auth-credential';
import type { CredentialKey, CredentialService, PendingAuthorization } from './credential-service';
import type { CredentialRequestRecord } from './request-credential';
import { buildAuthorizationUrl, createPkce, createState, oauth2Client, requestToken } from './oauth2-client';

/** Who is asking: the credential of which app and user. */
export interface CredentialOwner {
  appName: string;
  userId: string;
}

/**
 * @internal Obtains, refreshes and stores credentials over a {@link CredentialService}. One per runner:
 * parallel calls needing the same expired token share ONE refresh (its promise is kept per key until it settles).
 */
export class CredentialManager {
  private readonly inFlight = new Map<string, Promise<AuthCredential | undefined>>();

  constructor(
    readonly service: CredentialService,
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  /**
   * The usable credential for `config`, or `undefined` when the user must be asked: the raw credential
   * if the config has one; a stored one (refreshed first when expired; a failed refresh forgets it);
   * for client credentials, a token fetched without asking anyone.
   */
  async current(owner: CredentialOwner, config: AuthConfig): Promise<AuthCredential | undefined> {
    if (config.rawCredential) return { ...config.rawCredential };
    const key = credentialKey(owner, config);
    const stored = await this.service.loadCredential(key);
    if (stored && !isCredentialExpired(stored)) return stored;
    if (config.scheme === 'oauth2ClientCredentials') return this.once(key, () => this.clientCredentials(key, config));
    if (!stored) return undefined;
    if (!stored.refreshToken || !isAuthorizationCodeScheme(config.scheme)) {
      await this.service.deleteCredential(key);
      return undefined;
    }
    return this.once(key, () => this.refreshShared(key, config, stored));
  }

  /**
   * Starts an authorization for `config`: for the authorization code schemes a fresh `state` and PKCE
   * pair (the verifier stored server-side), and the authorization URL; for the others, just the public config.
   */
  async begin(owner: CredentialOwner, config: AuthConfig): Promise<CredentialRequestRecord> {
    if (!isAuthorizationCodeScheme(config.scheme)) return { authConfig: publicAuthConfig(config) };
    const state = createState();
    const pkce = createPkce();
    const authUri = buildAuthorizationUrl(config, state, pkce.codeChallenge);
    const pending: PendingAuthorization = {
      state,
      codeVerifier: pkce.codeVerifier,
      key: credentialKey(owner, config),
      authConfig: config,
      createdAt: Date.now(),
    };
    if (config.oauth2?.redirectUri) pending.redirectUri = config.oauth2.redirectUri;
    await this.service.savePendingAuthorization(pending);
    return { authConfig: publicAuthConfig({ ...config, authUri }), state };
  }

  /**
   * Finishes an authorization code flow: redeems `state` (once; it must have been started for `owner`),
   * exchanges `code` with the PKCE verifier and the config the tool asked with, and stores the tokens.
   * Returns `undefined` when `state` is unknown, already redeemed or another user's.
   */
  async completeCode(owner: CredentialOwner, code: string, state: string): Promise<AuthCredential | undefined> {
    const pending = await this.service.takePendingAuthorization(state);
    if (!pending || pending.key.appName !== owner.appName || pending.key.userId !== owner.userId) return undefined;
    const { key, authConfig: config } = pending;
    const params: Record<string, string> = { grant_type: 'authorization_code', code, code_verifier: pending.codeVerifier };
    if (pending.redirectUri) params.redirect_uri = pending.redirectUri;
    const credential = await requestToken(oauth2Client(config), params, this.fetchImpl);
    await this.service.saveCredential(key, credential);
    return credential;
  }

  /** Stores a credential the user typed in (API key, bearer token, basic). */
  async store(owner: CredentialOwner, config: AuthConfig, credential: AuthCredential): Promise<void> {
    await this.service.saveCredential(credentialKey(owner, config), credential);
  }

  private once(key: CredentialKey, work: () => Promise<AuthCredential | undefined>): Promise<AuthCredential | undefined> {
    const id = JSON.stringify([key.appName, key.userId, key.authConfigId]);
    const running = this.inFlight.get(id);
    if (running) return running;
    const started = work().finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, started);
    return started;
  }

  /**
   * Refreshes `stored`, under the service's update lock when it has one: whoever holds it after another
   * process refreshed finds the new token (or none, when that refresh failed) and sends no request.
   */
  private async refreshShared(key: CredentialKey, config: AuthConfig, stored: AuthCredential): Promise<AuthCredential | undefined> {
    const { service } = this;
    if (!service.updateCredential) {
      const refreshed = await this.refresh(config, stored);
      if (refreshed) await service.saveCredential(key, refreshed);
      else await service.deleteCredential(key);
      return refreshed;
    }
    return service.updateCredential(key, async (current) => {
      // Another process may have refreshed it (or forgotten it, its refresh refused) while this one waited.
      if (!current || !isCredentialExpired(current)) return current;
      return current.refreshToken ? this.refresh(config, current) : undefined;
    });
  }

  /** The refreshed credential, or `undefined` when the server refused the refresh token (revoked, expired). */
  private async refresh(config: AuthConfig, stored: AuthCredential): Promise<AuthCredential | undefined> {
    let fresh: AuthCredential;
    try {
      fresh = await requestToken(oauth2Client(config), { grant_type: 'refresh_token', refresh_token: stored.refreshToken! }, this.fetchImpl);
    } catch (error) {
      // Revoked or expired refresh token (or an unreachable server): forget it, so the user is asked again.
      if (!TokenRequestError.isInstance(error)) throw error;
      return undefined;
    }
    // A server that does not rotate refresh tokens leaves the old one valid.
    const credential: AuthCredential = { ...fresh, refreshToken: fresh.refreshToken ?? stored.refreshToken };
    if (!credential.idToken && stored.idToken) credential.idToken = stored.idToken;
    return credential;
  }

  private async clientCredentials(key: CredentialKey, config: AuthConfig): Promise<AuthCredential> {
    const client = oauth2Client(config);
    const params: Record<string, string> = { grant_type: 'client_credentials' };
    if (client.scopes && client.scopes.length > 0) params.scope = client.scopes.join(' ');
    const credential = await requestToken(client, params, this.fetchImpl);
    await this.service.saveCredential(key, credential);
    return credential;
  }
}

/** The {@link CredentialKey} of `owner`'s credential for `config`. */
export function credentialKey(owner: CredentialOwner, config: AuthConfig): CredentialKey {
  return { appName: owner.appName, userId: owner.userId, authConfigId: authConfigId(config) };
}
