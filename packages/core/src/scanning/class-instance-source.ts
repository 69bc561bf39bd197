import { Container } from '../di/container';
import type { ContainerAdapter, InjectionToken } from '../di/container-adapter';
import type { Class } from '../di/provider';

/** Who asks for an instance: the resolution scope of a request-scoped provider. */
export interface InstanceScope {
  /** The request's (or run's) invocation id. */
  readonly invocationId: string;
  /** Who asks. */
  readonly userId: string;
  /** The session it asks in. */
  readonly sessionId: string;
}

/**
 * The instance a decorated method runs on, from the container: resolved at first use with the request's
 * ids as the resolution scope, and kept when the container says it is a singleton (Toolsmith's own
 * {@link Container}; other containers are asked on every call, so per-request scopes work). A class not
 * registered in Toolsmith's container is registered as providing itself.
 */
export function instanceFromContainer(token: InjectionToken<object>, container: ContainerAdapter): (context: InstanceScope) => object | Promise<object> {
  const cacheable = container instanceof Container;
  // A class given as tools provides itself even without @Toolset; its dependencies still need providers.
  if (cacheable && !container.has(token)) container.register(token as Class<object>);
  let cached: object | undefined;
  return (context: InstanceScope) => {
    if (cached) return cached;
    const resolved = container.resolve(token, {
      invocationId: context.invocationId,
      userId: context.userId,
      sessionId: context.sessionId,
    });
    // Another container may hand back any thenable; the tool only knows native promises.
    if (!cacheable) return typeof (resolved as PromiseLike<object>)?.then === 'function' ? Promise.resolve(resolved) : resolved;
    if (!(container as Container).isSingleton(token)) return resolved;
    if (resolved instanceof Promise) return resolved.then((instance) => (cached = instance));
    return (cached = resolved);
  };
}
