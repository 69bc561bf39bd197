import type { InjectionToken } from './container-adapter';

/** How long one built instance is used: one for the container's life (default), or a new one per `resolve`. */
export type ProviderScope = 'singleton' | 'transient';

/** A class with any constructor. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- constructor parameters are contravariant: `unknown[]` would reject every class whose constructor takes arguments
export type Class<T = unknown> = new (...args: any[]) => T;

/** Registers a fixed value. */
export interface ValueProvider<T = unknown> {
  /** The token the value is registered under. */
  provide: InjectionToken<T>;
  /** The instance returned for `provide`, as is (never built or copied). */
  useValue: T;
}

/** Builds `useClass` (with its own constructor injection) when `provide` is asked for. */
export interface ClassProvider<T = unknown> {
  /** The token the instance is registered under: a class (often abstract), a string or a symbol. */
  provide: InjectionToken<T>;
  /** The class built for `provide`; its own constructor dependencies are injected. */
  useClass: Class<T>;
  /** `'singleton'` (default) shares one instance; `'transient'` builds a new one for every `resolve`. */
  scope?: ProviderScope;
}

/** Calls `useFactory` with the instances of `inject` (in order); the result may be a promise. */
export interface FactoryProvider<T = unknown> {
  /** The token the factory's result is registered under. */
  provide: InjectionToken<T>;
  /** Builds the instance from the resolved `inject` tokens; an async factory makes resolving `provide` async. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the factory's parameters are whatever `inject` resolves to, which the type system cannot follow
  useFactory: (...dependencies: any[]) => T | Promise<T>;
  /** Tokens resolved and passed to `useFactory`, in order; default none. */
  inject?: readonly InjectionToken[];
  /** `'singleton'` (default) calls the factory once; `'transient'` calls it for every `resolve`. */
  scope?: ProviderScope;
}

/** What {@link Container} accepts: a class (provides itself) or a value, class or factory provider. */
export type Provider<T = unknown> = Class<T> | ValueProvider<T> | ClassProvider<T> | FactoryProvider<T>;
