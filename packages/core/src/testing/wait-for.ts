/** Options for {@link waitFor}. */
export interface WaitForOptions {
  /** Give up after this many ms (default 5000). */
  timeoutMs?: number;
  /** Check the condition again after this many ms (default 5). */
  intervalMs?: number;
}

/**
 * Resolves once `condition()` returns true, checking it again every `intervalMs`; rejects when it is still
 * false after `timeoutMs`, so a test that waits for something that never happens fails with a clear message
 * instead of running into Jest's own timeout.
 *
 * @example
 * await waitFor(() => server.requests.length === 1);
 */
export async function waitFor(condition: () => boolean, options: WaitForOptions = {}): Promise<void> {
  const { timeoutMs = 5000, intervalMs = 5 } = options;
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
