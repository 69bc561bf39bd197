/**
 * The text of something thrown, for an error's message: an `Error`'s `message`, else the value as a
 * string. Never throws: anything may be thrown, and a value that cannot be read or converted (a revoked
 * Proxy, `Object.create(null)`, a `toString` or `message` that throws) must not turn the failure it
 * reports into another one (a run that cannot report its error would keep its session).
 */
export function thrownMessage(thrown: unknown): string {
  try {
    if (!(thrown instanceof Error)) return String(thrown);
    const { message } = thrown;
    return typeof message === 'string' ? message : String(message);
  } catch {
    return unreadableDescription(thrown);
  }
}

/** What a thrown value is, when it cannot be read as text. */
function unreadableDescription(thrown: unknown): string {
  // `typeof` reads nothing of the value (a revoked Proxy answers it too).
  return `a thrown ${typeof thrown === 'function' ? 'function' : 'object'} that cannot be converted to text`;
}
