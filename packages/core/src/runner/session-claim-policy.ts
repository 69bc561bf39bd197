/**
 * How a runner shares sessions with other processes (see docs/sessions.md, "One writer per session").
 * Every run claims its session in the store before it reads or stores anything, renews the claim
 * while it lasts and releases it at its end.
 */
export interface SessionClaimPolicy {
  /**
   * Milliseconds a claim lasts unless renewed; the runner renews it every third of that while the run
   * lasts. A process that dies holding a claim blocks the session this long at most. Default 30,000.
   */
  leaseMs?: number;
  /**
   * What a run does when another process's run holds the session: `'wait'` (default) until it ends
   * or its claim lapses, at most `maxWaitMs`; `'fail'` at once. Either way a run that gets no claim
   * ends with one `SESSION_BUSY` error event and stores nothing.
   */
  onBusy?: 'wait' | 'fail';
  /** With `onBusy: 'wait'`: milliseconds a run waits for a claim before it ends with `SESSION_BUSY`. Default 60,000. */
  maxWaitMs?: number;
}

/** {@link SessionClaimPolicy} with every default applied. */
export type ResolvedSessionClaimPolicy = Required<SessionClaimPolicy>;

/** The defaults of {@link SessionClaimPolicy}. */
export const DEFAULT_SESSION_CLAIM_POLICY: ResolvedSessionClaimPolicy = { leaseMs: 30_000, onBusy: 'wait', maxWaitMs: 60_000 };
