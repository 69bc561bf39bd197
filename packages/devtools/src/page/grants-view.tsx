import { useEffect, useState } from 'preact/hooks';
import type { WireGrant } from '../protocol/api-types';
import { api, describeError } from './api-client';
import { jsonText } from './json-view';

/** The Grants tab: every remembered "always allow" of the app, with its scope and expiry, and Revoke. */
export function GrantsView({ available }: { available: boolean }) {
  const [grants, setGrants] = useState<WireGrant[] | undefined>();
  const [problem, setProblem] = useState('');
  const refresh = () =>
    api.listGrants().then(
      (list) => setGrants(list),
      (error: unknown) => setProblem(describeError(error)),
    );
  useEffect(() => {
    if (available) void refresh();
  }, [available]);
  const revoke = async (id: string) => {
    setProblem('');
    try {
      await api.revokeGrant(id);
    } catch (error) {
      setProblem(describeError(error));
    }
    await refresh();
  };
  if (!available) {
    return (
      <div class="grants-view">
        <p class="muted" data-testid="grants-unavailable">
          This agent&apos;s runner has no grant service, so approvals cannot be remembered. A module that exports a Runner also exports the
          <code> grantService</code> it gave the Runner to list and revoke grants here.
        </p>
      </div>
    );
  }
  const now = Date.now();
  return (
    <div class="grants-view" data-testid="grants">
      <h2>Remembered approvals</h2>
      {problem && <div class="error" data-testid="grants-problem">{problem}</div>}
      {grants && grants.length === 0 && <p class="muted" data-testid="no-grants">No grants: every call that needs approval asks.</p>}
      <ul class="grant-list">
        {(grants ?? []).map((grant) => (
          <li key={grant.id} class="card" data-testid="grant" data-grant-id={grant.id} data-tool={grant.toolName} data-scope={grant.scope}>
            <div class="card-title">
              <code>{grant.toolName}</code>
              <span class="badge" data-testid="grant-scope-label">{scopeText(grant)}</span>
              {grant.expiresAt !== undefined && (
                <span class={`badge ${grant.expiresAt <= now ? 'error-code' : ''}`} data-testid="grant-expires">
                  {grant.expiresAt <= now ? 'expired' : 'expires'} {new Date(grant.expiresAt).toLocaleString()}
                </span>
              )}
              <button class="deny revoke" data-testid="revoke-grant" onClick={() => void revoke(grant.id)}>
                Revoke
              </button>
            </div>
            <div class="muted">
              {grant.id} · granted {new Date(grant.createdAt).toLocaleString()} · schema {grant.schemaHash.slice(0, 12)}
            </div>
            {grant.condition && <code class="args">when the arguments match {jsonText(grant.condition)}</code>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function scopeText(grant: WireGrant): string {
  if (grant.scope === 'app') return 'everyone in the app';
  if (grant.scope === 'user') return `user ${grant.userId ?? ''}`;
  return `session ${grant.sessionId ?? ''}`;
}
