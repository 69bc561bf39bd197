import type { AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';

/** Whose credential, for which {@link AuthConfig}: the key a {@link CredentialService} stores under. */
export interface CredentialKey {
  /** The app the credential belongs to (the runner's `appName`). */
  appName: string;
  /** The user the credential was obtained for. */
  userId: string;
  /** {@link authConfigId} of the config. */
  authConfigId: string;
}

/**
 * How long an authorization in progress waits for the user: 15 minutes from `createdAt`. An answer
 * after that exchanges no code (`AUTH_AUTHORIZATION_EXPIRED`, and the user is asked again); services
 * delete expired ones when they save a new one.
 */
export const PENDING_AUTHORIZATION_TTL_MS = 15 * 60_000;

/**
 * An authorization Toolsmith started and the user has not finished: kept server-side, keyed by the
 * `state` sent in the authorization URL, so the PKCE verifier never leaves the server.
 */
export interface PendingAuthorization {
  /** The random `state` of the authorization URL. */
  state: string;
  /** The PKCE code verifier (its S256 challenge went in the URL). */
  codeVerifier: string;
  /** Where the credential goes once the code is exchanged: the app, user and auth config that asked. */
  key: CredentialKey;
  /** The whole config the tool asked with (client secret included): the code is exchanged with it. */
  authConfig: AuthConfig;
  /** The redirect URI sent in the authorization URL; the token request must repeat it. */
  redirectUri?: string;
  /** Milliseconds since the epoch: it was started then; it expires {@link PENDING_AUTHORIZATION_TTL_MS} later. */
  createdAt: number;
}

/**
 * Where the credentials tools obtain are kept, per app, user and auth config, along with the
 * authorizations in progress. Implementations must make {@link CredentialService.takePendingAuthorization}
 * atomic: a `state` is redeemed once.
 */
export interface CredentialService {
  /**
   * The stored credential, or `undefined`. A service that cannot read a stored one back (encrypted under
   * another key) throws `CredentialDecryptError`: Toolsmith then deletes it and asks the user again.
   */
  loadCredential(key: CredentialKey): Promise<AuthCredential | undefined>;
  /** Stores (or replaces) a credential. */
  saveCredential(key: CredentialKey, credential: AuthCredential): Promise<void>;
  /** Forgets a credential (e.g. its refresh token was revoked). */
  deleteCredential(key: CredentialKey): Promise<void>;
  /**
   * Remembers an authorization in progress until the user comes back with its `state`, and deletes those
   * older than {@link PENDING_AUTHORIZATION_TTL_MS}.
   */
  savePendingAuthorization(pending: PendingAuthorization): Promise<void>;
  /** Returns and forgets the authorization started with `state`; `undefined` when unknown or already taken. */
  takePendingAuthorization(state: string): Promise<PendingAuthorization | undefined>;
  /**
   * Optional, for services several processes share: reads the stored credential, passes it to `update`,
   * and stores what `update` returns (deletes it for `undefined`; writes nothing when it returns the
   * credential it was given), while no other caller updates the same key. Toolsmith refreshes expired
   * tokens through it, so that of several processes finding the same token expired one refreshes and
   * the others get its result (a rotated refresh token can be used once). Without it, a refresh is
   * shared within one process only.
   */
  updateCredential?(key: CredentialKey, update: (current: AuthCredential | undefined) => Promise<AuthCredential | undefined>): Promise<AuthCredential | undefined>;
}
