import type { InjectionToken } from './container-adapter';

/** How long one built instance is used: one for the container's life (default), or a new one per `resolve`. */
export type ProviderScope = 'singleton' | 'transient';

/** A class with any constructor. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- constructor parameters are contravariant: `unknown[]` would reject every class whose constructor takes arguments
export type Class<T = unknown> = new (...args: any[]) => T;

/** Registers a fixed value. */
export interface ValueProvider<T = unknown> {
  provide: InjectionToken<T>;
  useValue: T;
}

/** Builds `useClass` (with its own constructor injection) when `provide` is asked for. */
export interface ClassProvider<T = unknown> {
  provide: InjectionToken<T>;
  useClass: Class<T>;
  scope?: ProviderScope;
}

/** Calls `useFactory` with the instances of `inject` (in order); the result may be a promise. */
export interface FactoryProvider<T = unknown> {
  provide: InjectionToken<T>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the factory's parameters are whatever `inject` resolves to, which the type system cannot follow
  useFactory: (...dependencies: any[]) => T | Promise<T>;
  inject?: readonly InjectionToken[];
  scope?: ProviderScope;
}

/** What {@link Container} accepts: a class (provides itself) or a value, class or factory provider. */
export type Provider<T = unknown> = Class<T> | ValueProvider<T> | ClassProvider<T> | FactoryProvider<T>;
