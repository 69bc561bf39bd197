import { AuthorizationExpiredError, CredentialSaveFailedError, TokenEndpointUnavailableError, TokenRequestError } from '../errors/auth-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import { type AuthConfig, authConfigId, isAuthorizationCodeScheme, publicAuthConfig } from './auth-config';
import { type AuthCredential, credentialValues, isCredentialExpired } from './auth-credential';
import { type CredentialKey, type CredentialService, PENDING_AUTHORIZATION_TTL_MS, type PendingAuthorization } from './credential-service';
import type { CredentialRequestRecord } from './request-credential';
import { buildAuthorizationUrl, createPkce, createState, oauth2Client, requestToken, requestedScopes } from './oauth2-client';

/** Who is asking: the credential of which app and user. */
export interface CredentialOwner {
  appName: string;
  userId: string;
}

/**
 * The refreshes (and client-credentials requests) in flight, per credential service object and key: every
 * runner, `serveMcp` and `invokeTool` sharing one service shares them, so one expired token is refreshed
 * once in the process (a rotated refresh token works once: a second refresh would be refused).
 */
const inFlightByService = new WeakMap<CredentialService, Map<string, Promise<AuthCredential | undefined>>>();

/**
 * OAuth error codes by which a token endpoint refuses the refresh token itself (RFC 6749 §5.2; `invalid_token`
 * from servers that answer as a resource server would): only these delete the credential.
 */
const REFUSALS = new Set(['invalid_grant', 'invalid_token', 'unauthorized_client']);

/**
 * @internal Obtains, refreshes and stores credentials over a {@link CredentialService}. One per runner;
 * parallel calls needing the same expired token share ONE refresh, across every manager of the same
 * service (its promise is kept per service and key until it settles).
 */
export class CredentialManager {
  private readonly inFlight: Map<string, Promise<AuthCredential | undefined>>;

  constructor(
    readonly service: CredentialService,
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  ) {
    let shared = inFlightByService.get(service);
    if (!shared) inFlightByService.set(service, (shared = new Map()));
    this.inFlight = shared;
  }

  /**
   * The usable credential for `config`, or `undefined` when the user must be asked: the raw credential
   * if the config has one; a stored one (refreshed first when expired; a refresh the server refuses
   * forgets it, one it cannot answer now keeps it and throws {@link TokenEndpointUnavailableError}); for
   * client credentials, a token fetched without asking anyone. A stored credential that can no longer be
   * decrypted is deleted, as if there were none.
   */
  async current(owner: CredentialOwner, config: AuthConfig): Promise<AuthCredential | undefined> {
    if (config.rawCredential) return { ...config.rawCredential };
    const key = credentialKey(owner, config);
    const stored = await this.readable(key);
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
   * Returns `undefined` when `state` is unknown, already redeemed or another user's; throws
   * {@link AuthorizationExpiredError} when it is older than `PENDING_AUTHORIZATION_TTL_MS`.
   */
  async completeCode(owner: CredentialOwner, code: string, state: string): Promise<AuthCredential | undefined> {
    const pending = await this.service.takePendingAuthorization(state);
    if (!pending || pending.key.appName !== owner.appName || pending.key.userId !== owner.userId) return undefined;
    if (!(Date.now() - pending.createdAt <= PENDING_AUTHORIZATION_TTL_MS)) throw new AuthorizationExpiredError(PENDING_AUTHORIZATION_TTL_MS);
    const { key, authConfig: config } = pending;
    const params: Record<string, string> = { grant_type: 'authorization_code', code, code_verifier: pending.codeVerifier };
    if (pending.redirectUri) params.redirect_uri = pending.redirectUri;
    const credential = withScope(await requestToken(oauth2Client(config), params, this.fetchImpl), requestedScopes(config).join(' '));
    // The code is spent: tokens that cannot be saved are lost, and the user is asked again.
    await this.save(key, credential);
    return credential;
  }

  /**
   * Stores a credential the user typed in (API key, bearer token, basic), answering the request
   * `requestId`. Throws {@link CredentialSaveFailedError} (the credential's values redacted from its
   * message) when the service fails.
   */
  async store(owner: CredentialOwner, config: AuthConfig, credential: AuthCredential, requestId?: string): Promise<void> {
    await this.save(credentialKey(owner, config), credential, requestId);
  }

  /** Saves `credential`; a service that fails is a {@link CredentialSaveFailedError}, its message without the credential's values. */
  private async save(key: CredentialKey, credential: AuthCredential, requestId?: string): Promise<void> {
    try {
      await this.service.saveCredential(key, credential);
    } catch (error) {
      throw new CredentialSaveFailedError(key.authConfigId, credentialValues(credential), error, requestId);
    }
  }

  /** The stored credential; one that no longer decrypts (the key was rotated) is deleted and reads as none. */
  private async readable(key: CredentialKey): Promise<AuthCredential | undefined> {
    try {
      return await this.service.loadCredential(key);
    } catch (error) {
      if (!ToolsmithError.isInstance(error) || error.code !== 'CREDENTIAL_DECRYPT_FAILED') throw error;
      await this.service.deleteCredential(key);
      return undefined;
    }
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

  /**
   * The refreshed credential, or `undefined` when the server refused the refresh token (`invalid_grant`:
   * revoked, expired). Throws, keeping the credential, when the server could not answer now
   * ({@link TokenEndpointUnavailableError}: unreachable, 5xx, 429, 408) or failed otherwise (`TokenRequestError`).
   */
  private async refresh(config: AuthConfig, stored: AuthCredential): Promise<AuthCredential | undefined> {
    let fresh: AuthCredential;
    try {
      fresh = await requestToken(oauth2Client(config), { grant_type: 'refresh_token', refresh_token: stored.refreshToken! }, this.fetchImpl);
    } catch (error) {
      if (!(error instanceof TokenRequestError)) throw error;
      const { status } = error;
      if (status === undefined || status >= 500 || status === 429 || status === 408) throw new TokenEndpointUnavailableError(error.tokenUrl, status, { cause: error });
      // The refresh token itself is refused: forget it, so the user is asked again.
      if ((status === 400 || status === 401) && error.oauthError !== undefined && REFUSALS.has(error.oauthError)) return undefined;
      throw error;
    }
    // A server that does not rotate refresh tokens leaves the old one valid.
    const credential: AuthCredential = withScope({ ...fresh, refreshToken: fresh.refreshToken ?? stored.refreshToken }, stored.scope);
    if (!credential.idToken && stored.idToken) credential.idToken = stored.idToken;
    return credential;
  }

  private async clientCredentials(key: CredentialKey, config: AuthConfig): Promise<AuthCredential> {
    const client = oauth2Client(config);
    const params: Record<string, string> = { grant_type: 'client_credentials' };
    if (client.scopes && client.scopes.length > 0) params.scope = client.scopes.join(' ');
    const credential = withScope(await requestToken(client, params, this.fetchImpl), params.scope);
    await this.service.saveCredential(key, credential);
    return credential;
  }
}

/**
 * `credential` with `scope` as its granted scope when the token response named none: RFC 6749 §5.1 lets
 * a server omit `scope` when it granted what was requested (a refresh keeps the scope of the token it renews).
 */
function withScope(credential: AuthCredential, scope: string | undefined): AuthCredential {
  return credential.scope === undefined && scope ? { ...credential, scope } : credential;
}

/** The {@link CredentialKey} of `owner`'s credential for `config`. */
export function credentialKey(owner: CredentialOwner, config: AuthConfig): CredentialKey {
  return { appName: owner.appName, userId: owner.userId, authConfigId: authConfigId(config) };
}
