import { AgentConfigError } from '../errors/agent-config-error';
import { invalidSessionClaimPolicyMessage } from '../errors/messages';

/**
 * How a runner shares sessions with other processes (see docs/sessions.md, "One writer per session").
 * Every run claims its session in the store before it reads or stores anything, renews the claim
 * while it lasts and releases it at its end.
 */
export interface SessionClaimPolicy {
  /**
   * Milliseconds a claim lasts unless renewed; the runner renews it every third of that while the run
   * lasts. A process that dies holding a claim blocks the session this long at most. A whole number
   * from {@link MIN_LEASE_MS} (1 s) to {@link MAX_LEASE_MS} (one day); default 30,000.
   */
  leaseMs?: number;
  /**
   * What a run does when another process's run holds the session: `'wait'` (default) until it ends
   * or its claim lapses, at most `maxWaitMs`; `'fail'` at once. Either way a run that gets no claim
   * ends with one `SESSION_BUSY` error event and stores nothing.
   */
  onBusy?: 'wait' | 'fail';
  /** With `onBusy: 'wait'`: milliseconds (0 or more) a run waits for a claim before it ends with `SESSION_BUSY`. Default 60,000. */
  maxWaitMs?: number;
}

/** {@link SessionClaimPolicy} with every default applied. */
export type ResolvedSessionClaimPolicy = Required<SessionClaimPolicy>;

/**
 * The shortest lease a runner takes: a renewal is a store round trip started every third of the lease, on an
 * event loop that other work delays; a lease of a few milliseconds lapsed while its run lived (another process
 * then answered the running call `TOOL_INTERRUPTED` and ran the tool again).
 */
export const MIN_LEASE_MS = 1_000;
/** The longest: a dead process blocks its sessions for a lease, and a third of it must fit a timer. */
export const MAX_LEASE_MS = 86_400_000;

/** The defaults of {@link SessionClaimPolicy}. */
export const DEFAULT_SESSION_CLAIM_POLICY: ResolvedSessionClaimPolicy = { leaseMs: 30_000, onBusy: 'wait', maxWaitMs: 60_000 };

/**
 * The policy with its defaults applied. A value no claim can work with (a lease too short for its renewals
 * to reach the store in time lapses while its run lives, so two processes would write one session) fails at
 * construction with `AGENT_CONFIG_INVALID`.
 */
export function resolveSessionClaimPolicy(policy: SessionClaimPolicy | undefined): ResolvedSessionClaimPolicy {
  const resolved: ResolvedSessionClaimPolicy = {
    leaseMs: policy?.leaseMs ?? DEFAULT_SESSION_CLAIM_POLICY.leaseMs,
    onBusy: policy?.onBusy ?? DEFAULT_SESSION_CLAIM_POLICY.onBusy,
    maxWaitMs: policy?.maxWaitMs ?? DEFAULT_SESSION_CLAIM_POLICY.maxWaitMs,
  };
  if (!Number.isSafeInteger(resolved.leaseMs) || resolved.leaseMs < MIN_LEASE_MS || resolved.leaseMs > MAX_LEASE_MS) {
    throw new AgentConfigError(invalidSessionClaimPolicyMessage('leaseMs', resolved.leaseMs, 'a whole number of milliseconds from 1,000 (a renewal must reach the store before the lease ends) to 86,400,000 (one day)'));
  }
  if (typeof resolved.maxWaitMs !== 'number' || !Number.isFinite(resolved.maxWaitMs) || resolved.maxWaitMs < 0) {
    throw new AgentConfigError(invalidSessionClaimPolicyMessage('maxWaitMs', resolved.maxWaitMs, 'a finite number of milliseconds, 0 or more'));
  }
  if (resolved.onBusy !== 'wait' && resolved.onBusy !== 'fail') {
    throw new AgentConfigError(invalidSessionClaimPolicyMessage('onBusy', resolved.onBusy, "'wait' or 'fail'"));
  }
  return resolved;
}
