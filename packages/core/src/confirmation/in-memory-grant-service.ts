import { randomUUID } from 'node:crypto';
import { InvalidGrantError } from '../errors/invalid-grant-error';
import { grantProblem } from './grant-problem';
import type { ConfirmationGrant, GrantQuery, GrantService, NewGrant } from './grant-service';

/** A {@link GrantService} in memory: grants last as long as the process. */
export class InMemoryGrantService implements GrantService {
  private readonly grants = new Map<string, ConfirmationGrant>();

  /** Implements {@link GrantService.createGrant}; refuses a grant {@link grantProblem} finds wrong with `INVALID_GRANT`. */
  async createGrant(grant: NewGrant): Promise<ConfirmationGrant> {
    const problem = grantProblem(grant);
    if (problem) throw new InvalidGrantError(problem);
    const stored: ConfirmationGrant = structuredClone({ ...grant, id: `grant-${randomUUID()}`, createdAt: Date.now() });
    this.grants.set(stored.id, stored);
    return structuredClone(stored);
  }

  /** Implements {@link GrantService.applicableGrants}. */
  async applicableGrants(query: { appName: string; userId: string; sessionId: string; toolName: string }): Promise<ConfirmationGrant[]> {
    return this.select(
      (g) =>
        g.appName === query.appName &&
        g.toolName === query.toolName &&
        (g.scope === 'app' || (g.userId === query.userId && (g.scope === 'user' || g.sessionId === query.sessionId))),
    );
  }

  /** Implements {@link GrantService.listGrants}. */
  async listGrants(query: GrantQuery): Promise<ConfirmationGrant[]> {
    return this.select(
      (g) =>
        g.appName === query.appName &&
        (query.toolName === undefined || g.toolName === query.toolName) &&
        (query.userId === undefined || g.userId === query.userId) &&
        (query.sessionId === undefined || g.sessionId === query.sessionId),
    );
  }

  /** Implements {@link GrantService.revokeGrant}. */
  async revokeGrant(query: { appName: string; grantId: string }): Promise<boolean> {
    const grant = this.grants.get(query.grantId);
    if (!grant || grant.appName !== query.appName) return false;
    return this.grants.delete(query.grantId);
  }

  /** Implements {@link GrantService.revokeSessionGrants}. */
  async revokeSessionGrants(query: { appName: string; userId: string; sessionId: string }): Promise<number> {
    let removed = 0;
    for (const grant of [...this.grants.values()]) {
      if (grant.scope === 'session' && grant.appName === query.appName && grant.userId === query.userId && grant.sessionId === query.sessionId) {
        this.grants.delete(grant.id);
        removed++;
      }
    }
    return removed;
  }

  private select(test: (grant: ConfirmationGrant) => boolean): ConfirmationGrant[] {
    return [...this.grants.values()].filter(test).map((grant) => structuredClone(grant));
  }
}
