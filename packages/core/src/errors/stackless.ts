/**
 * Turns stack capture off until {@link resumeStackTraces} restores the returned limit. Called right
 * before `super(...)` by errors that report what the model sent (invalid, malformed or oversized
 * arguments, an unknown tool): they become the model's feedback, never a crash, and their stack would
 * list only Toolsmith's own frames, while capturing it costs more than the rest of the invalid call (V8
 * walks every frame, async ones included). Their `stack` still holds the name and message. Nothing
 * that can throw may run between the two calls.
 */
export function pauseStackTraces(): number {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return limit;
}

/** Restores the limit {@link pauseStackTraces} returned. */
export function resumeStackTraces(limit: number): void {
  Error.stackTraceLimit = limit;
}
