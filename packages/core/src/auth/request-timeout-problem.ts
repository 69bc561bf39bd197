/** The largest `requestTimeoutMs` accepted: Node's timers hold at most 2^31 - 1 ms (about 24.8 days). */
export const MAX_REQUEST_TIMEOUT_MS = 2_147_483_647;

/**
 * What is wrong with a `requestTimeoutMs` value, or `undefined` when it is absent or a number of
 * milliseconds above 0 and at most {@link MAX_REQUEST_TIMEOUT_MS}.
 */
export function requestTimeoutProblem(value: unknown): string | undefined {
  if (value === undefined || (typeof value === 'number' && value > 0 && value <= MAX_REQUEST_TIMEOUT_MS)) return undefined;
  const got = typeof value === 'number' || typeof value === 'bigint' ? String(value) : JSON.stringify(value) ?? String(value);
  return `must be a number of milliseconds above 0 and at most ${MAX_REQUEST_TIMEOUT_MS}; got ${got}`;
}
