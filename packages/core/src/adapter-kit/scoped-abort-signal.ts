/** A per-call signal that follows a longer-lived one until disposed. */
export interface ScopedAbortSignal {
  /** Aborted when the parent aborts (with the parent's reason), until {@link ScopedAbortSignal.dispose}. */
  readonly signal: AbortSignal;
  /** Detaches from the parent; call it when the call is over (in `finally`). */
  dispose(): void;
}

/**
 * Derives a per-call signal from `parent` for handing to a provider SDK. SDKs add an `abort` listener
 * to the signal they get and never remove it; given a run's long-lived signal (or a shared
 * never-aborted one), every model call would leave a listener, and what it holds, behind. The SDK
 * listens to the scoped signal instead, which is dropped with the call.
 *
 * @example
 * ```ts
 * const scoped = scopeAbortSignal(options.signal);
 * try { await client.messages.create(body, { signal: scoped.signal }); } finally { scoped.dispose(); }
 * ```
 */
export function scopeAbortSignal(parent: AbortSignal | undefined): ScopedAbortSignal {
  const controller = new AbortController();
  if (!parent) return { signal: controller.signal, dispose: () => {} };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, dispose: () => parent.removeEventListener('abort', forward) };
}
