/** The signal of runs started without one: never aborted, so nobody needs to listen to it. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
