/** What the container is asked for: a class, or a string/symbol token registered with a provider. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- abstract classes and classes with constructor parameters must both be tokens
export type InjectionToken<T = unknown> = (abstract new (...args: any[]) => T) | string | symbol;

/** Identifies the current run, for containers with per-request/per-run providers. */
export interface ResolutionScope {
  /** The current invocation: per-run providers get one instance per invocation (Nest's adapter keys its context id on it). */
  invocationId: string;
  /** The user the run is for. */
  userId: string;
  /** The session the run is in. */
  sessionId: string;
}

/**
 * Narrow interface through which Toolsmith gets instances of `@Toolset` classes. Toolsmith's own
 * {@link Container} implements it; an external container (NestJS) can implement it instead.
 */
export interface ContainerAdapter {
  /** The instance for `token`, built with its dependencies. May be async (async factories). */
  resolve<T>(token: InjectionToken<T>, scope?: ResolutionScope): T | Promise<T>;
}

/** A readable name for a token, for error messages. */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || '<anonymous class>';
  if (typeof token === 'symbol') return token.toString();
  return JSON.stringify(token);
}
