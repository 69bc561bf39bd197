import type { JsonSchema } from '../model/json-schema';

/** Who a remembered grant covers: one session, every session of one user, or every user of the app. */
export type GrantScope = 'session' | 'user' | 'app';

/**
 * A remembered "always allow" for one tool: calls it covers run without asking. It matches the tool's
 * name and a hash of its parameter schema (a tool whose parameters changed asks again), within its
 * scope, until it expires or is revoked, and only for arguments its `condition` accepts.
 */
export interface ConfirmationGrant {
  /** The grant's id: what the call's `confirmation.grantId` names, and what {@link GrantService.revokeGrant} takes. */
  id: string;
  /** The app it belongs to. */
  appName: string;
  /** `session`: `userId` + `sessionId`; `user`: `userId`; `app`: everyone. */
  scope: GrantScope;
  /** The user, for `user` and `session` grants. */
  userId?: string;
  /** The session, for `session` grants. */
  sessionId?: string;
  /** The tool it allows. */
  toolName: string;
  /** {@link toolSchemaHash} of the tool's parameters when granted. */
  schemaHash: string;
  /** A JSON Schema the call's validated arguments must match (e.g. `{ properties: { amount: { maximum: 100 } } }`); absent: any arguments. */
  condition?: JsonSchema;
  /** When it was granted (ms since the epoch). */
  createdAt: number;
  /** When it stops matching: a whole number of ms since the epoch; absent: never. */
  expiresAt?: number;
}

/** What {@link GrantService.createGrant} stores: a grant without its id and creation time. */
export type NewGrant = Omit<ConfirmationGrant, 'id' | 'createdAt'>;

/** Which grants {@link GrantService.listGrants} lists. */
export interface GrantQuery {
  /** The app whose grants are listed. */
  appName: string;
  /** Only this user's grants (scopes `user` and `session`). */
  userId?: string;
  /** With `userId`: only this session's grants. */
  sessionId?: string;
  /** Only grants of this tool. */
  toolName?: string;
}

/**
 * Stores remembered confirmation grants. The runner asks it for the grants that may cover a gated
 * call and creates one when the person answers with `remember`; clients list and revoke grants through
 * it. In memory: `InMemoryGrantService`; `runGrantServiceConformance` (`@toolsmith/core/testing`) tests a store.
 */
export interface GrantService {
  /** Stores a grant and returns it with its id and creation time; throws `InvalidGrantError` (`INVALID_GRANT`, nothing stored) for a grant `grantProblem` refuses. */
  createGrant(grant: NewGrant): Promise<ConfirmationGrant>;
  /** The grants of `query.appName` whose scope covers `userId` and `sessionId` for `toolName` (expired ones included: the runner checks expiry, hash and condition). */
  applicableGrants(query: { appName: string; userId: string; sessionId: string; toolName: string }): Promise<ConfirmationGrant[]>;
  /** The grants a query names, oldest first (expired ones included). */
  listGrants(query: GrantQuery): Promise<ConfirmationGrant[]>;
  /** Removes a grant; `false` when the app holds no grant with this id. */
  revokeGrant(query: { appName: string; grantId: string }): Promise<boolean>;
  /**
   * Removes every `session`-scoped grant of this session (its `user` and `app` grants stay) and resolves
   * to how many were removed. `Runner.deleteSession` calls it, so a session's grants end with the
   * session and a new session under the same id is asked again.
   */
  revokeSessionGrants(query: { appName: string; userId: string; sessionId: string }): Promise<number>;
}
