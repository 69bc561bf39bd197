import { invalidProviderShapeMessage, providerWithoutSourceMessage, type UnknownDependencyReason } from '../errors/messages';
import { DependencyResolutionError } from '../errors/dependency-resolution-error';
import { ToolsmithError } from '../errors/toolsmith-error';
import { usesStandardDecorators } from '../decorators/standard-decorators';
import { DESIGN_PARAMTYPES, INJECTABLE_METADATA, INJECT_METADATA, TOOLSET_METADATA } from '../metadata-keys';
import { type ContainerAdapter, type InjectionToken, type ResolutionScope, tokenName } from './container-adapter';
import type { Class, Provider, ProviderScope } from './provider';

interface Registration {
  scope: ProviderScope;
  /** Builds the instance given the chain of tokens that led here (for error messages). */
  build(chain: readonly InjectionToken[]): unknown;
  /** The tokens a build would ask for, without building anything (for {@link Container.assertResolvable}). */
  dependencies(chain: readonly InjectionToken[]): readonly InjectionToken[];
}

/** Types that say nothing about what to inject: interfaces, unions and primitives all reflect as these. */
const UNINJECTABLE_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Symbol, Promise, undefined]);

/**
 * A small dependency-injection container: constructor injection by type for decorated classes
 * (`@Toolset`, or any class decorator, makes TypeScript record parameter types), `@Inject(token)` for
 * the rest, value/class/factory providers, singletons by default. Unregistered `@Toolset` classes are
 * built on demand, so `new Container([WeatherApi])` is enough for `WeatherTools(api: WeatherApi)`.
 *
 * @example
 * ```ts
 * const container = new Container([
 *   WeatherApi,
 *   { provide: 'API_KEY', useValue: process.env.KEY },
 *   { provide: Db, useFactory: async (url: string) => Db.connect(url), inject: ['DB_URL'] },
 * ]);
 * ```
 */
export class Container implements ContainerAdapter {
  private readonly registrations = new Map<InjectionToken, Registration>();
  /** Built singletons; a promise while an async build is under way. */
  private readonly singletons = new Map<InjectionToken, unknown>();

  constructor(providers: readonly Provider[] = []) {
    for (const provider of providers) this.register(provider);
  }

  /** Adds (or replaces) a provider. Replacing drops an already-built singleton of that token. */
  register(provider: Provider): this {
    if (typeof provider === 'function') {
      this.registrations.set(provider, this.classRegistration(provider, 'singleton'));
      this.singletons.delete(provider);
      return this;
    }
    if (provider === null || typeof provider !== 'object' || !('provide' in provider)) {
      throw new ToolsmithError(
        'INVALID_PROVIDER',
        invalidProviderShapeMessage(String(provider)),
      );
    }
    let registration: Registration;
    if ('useValue' in provider) {
      const value = provider.useValue;
      registration = { scope: 'singleton', build: () => value, dependencies: () => [] };
    } else if ('useClass' in provider) {
      registration = this.classRegistration(provider.useClass, provider.scope ?? 'singleton');
    } else if ('useFactory' in provider && typeof provider.useFactory === 'function') {
      const { useFactory, inject = [] } = provider;
      registration = {
        scope: provider.scope ?? 'singleton',
        build: (chain) => this.withDependencies(chain, inject, (deps) => useFactory(...deps)),
        dependencies: () => inject,
      };
    } else {
      throw new ToolsmithError(
        'INVALID_PROVIDER',
        providerWithoutSourceMessage(tokenName(provider.provide)),
      );
    }
    this.registrations.set(provider.provide, registration);
    this.singletons.delete(provider.provide);
    return this;
  }

  /** True when `token` has a provider or is a `@Toolset` class (built on demand). */
  has(token: InjectionToken): boolean {
    return this.registrations.has(token) || isToolsetClass(token);
  }

  /** True when `token` resolves to one shared instance, so callers may keep it. */
  isSingleton(token: InjectionToken): boolean {
    return (this.registrations.get(token)?.scope ?? 'singleton') === 'singleton';
  }

  /**
   * The instance for `token`. Synchronous unless an async factory is involved. Throws
   * {@link DependencyResolutionError} naming the dependency chain for a missing provider or a cycle.
   * `scope` is accepted for {@link ContainerAdapter} compatibility; this container has no per-run providers.
   */
  resolve<T>(token: InjectionToken<T>, _scope?: ResolutionScope): T | Promise<T> {
    if (this.singletons.has(token)) return this.singletons.get(token) as T | Promise<T>;
    return this.get(token, []) as T | Promise<T>;
  }

  /**
   * Checks, without building anything, that `token` and everything it depends on can be resolved:
   * each constructor's `design:paramtypes`/`@Inject` tokens and each factory's `inject` list must have a
   * provider (or be a `@Toolset` class), and no chain may loop. Throws the {@link DependencyResolutionError}
   * that resolving would throw later (`MISSING_PROVIDER`, `DEPENDENCY_CYCLE`, `UNKNOWN_DEPENDENCY_TYPE`),
   * naming the chain and the fix. The `Runner` calls it at startup for every `@Toolset` class it is given.
   *
   * @example
   * ```ts
   * new Container([WeatherApi]).assertResolvable(WeatherTools); // throws if WeatherApi needs an unregistered token
   * ```
   */
  assertResolvable(token: InjectionToken): void {
    this.check(token, [], new Set());
  }

  private check(token: InjectionToken, chain: readonly InjectionToken[], resolvable: Set<InjectionToken>): void {
    if (resolvable.has(token) || this.singletons.has(token)) return;
    if (chain.includes(token)) {
      const start = chain.indexOf(token);
      throw DependencyResolutionError.cycle([...chain.slice(start), token].map(tokenName));
    }
    const registration = this.registrations.get(token) ?? (isToolsetClass(token) ? this.classRegistration(token as Class, 'singleton') : undefined);
    if (!registration) throw DependencyResolutionError.missingProvider([...chain, token].map(tokenName));
    const path = [...chain, token];
    for (const dependency of registration.dependencies(path)) this.check(dependency, path, resolvable);
    // Checked once: a token shared by many classes is not walked again.
    resolvable.add(token);
  }

  private get(token: InjectionToken, chain: readonly InjectionToken[]): unknown {
    if (this.singletons.has(token)) return this.singletons.get(token);
    if (chain.includes(token)) {
      const start = chain.indexOf(token);
      throw DependencyResolutionError.cycle([...chain.slice(start), token].map(tokenName));
    }
    let registration = this.registrations.get(token);
    if (!registration && isToolsetClass(token)) {
      registration = this.classRegistration(token as Class, 'singleton');
      this.registrations.set(token, registration);
    }
    if (!registration) throw DependencyResolutionError.missingProvider([...chain, token].map(tokenName));
    const value = registration.build([...chain, token]);
    if (registration.scope === 'singleton') {
      this.singletons.set(token, value);
      if (isPromise(value)) {
        value.then(
          (built) => this.singletons.set(token, built),
          () => this.singletons.delete(token),
        );
      }
    }
    return value;
  }

  private classRegistration(cls: Class, scope: ProviderScope): Registration {
    return {
      scope,
      build: (chain) => this.withDependencies(chain, constructorDependencies(cls, chain), (deps) => new cls(...deps)),
      dependencies: (chain) => constructorDependencies(cls, chain),
    };
  }

  /** Resolves `tokens`, then calls `create` with them; stays synchronous when every dependency is. */
  private withDependencies(
    chain: readonly InjectionToken[],
    tokens: readonly InjectionToken[],
    create: (deps: unknown[]) => unknown,
  ): unknown {
    const deps = tokens.map((t) => this.get(t, chain));
    const names = () => chain.map(tokenName);
    const guarded = (values: unknown[]) => {
      try {
        const created = create(values);
        return isPromise(created) ? created.catch((e: unknown) => Promise.reject(wrap(names(), e))) : created;
      } catch (thrown) {
        throw wrap(names(), thrown);
      }
    };
    return deps.some(isPromise) ? Promise.all(deps).then(guarded) : guarded(deps);
  }
}

function wrap(chain: string[], thrown: unknown): unknown {
  return thrown instanceof DependencyResolutionError ? thrown : DependencyResolutionError.providerFailed(chain, thrown);
}

/**
 * The tokens a class constructor asks for, per position: its `@Inject` token, else its entry in the
 * `inject` list of `@Toolset`/`@Injectable`, else the reflected parameter type.
 */
function constructorDependencies(cls: Class, chain: readonly InjectionToken[]): InjectionToken[] {
  const types: unknown[] | undefined = Reflect.getMetadata(DESIGN_PARAMTYPES, cls);
  const injected: Record<number, InjectionToken> = Reflect.getMetadata(INJECT_METADATA, cls) ?? {};
  const listed = injectList(cls);
  const count = Math.max(types?.length ?? 0, cls.length, listed?.length ?? 0, ...Object.keys(injected).map((k) => Number(k) + 1));
  const tokens: InjectionToken[] = [];
  for (let i = 0; i < count; i++) {
    const inList = listed !== undefined && i < listed.length;
    const token = injected[i] ?? (inList ? listed[i] : types?.[i]);
    // A listed token is taken as it is (a string or symbol too), unless the import it names was not yet defined.
    if (injected[i] === undefined && (inList ? token === undefined : UNINJECTABLE_TYPES.has(token))) {
      throw DependencyResolutionError.unknownType(chain.map(tokenName), i, unknownTypeReason(cls, types, token, listed, i), (token as { name?: string } | undefined)?.name);
    }
    tokens.push(token as InjectionToken);
  }
  return tokens;
}

/** The `inject` option of the class's `@Toolset` or `@Injectable`, if it has one. */
function injectList(cls: Class): readonly InjectionToken[] | undefined {
  const options = (Reflect.getOwnMetadata(INJECTABLE_METADATA, cls) ?? Reflect.getOwnMetadata(TOOLSET_METADATA, cls)) as { inject?: readonly InjectionToken[] } | undefined;
  return options?.inject;
}

/** Why a constructor parameter of `cls`, typed `token` at runtime, cannot be injected (for the error message). */
function unknownTypeReason(cls: Class, types: unknown[] | undefined, token: unknown, listed: readonly InjectionToken[] | undefined, index: number): UnknownDependencyReason {
  if (listed !== undefined && index < listed.length) return 'undefined';
  if (listed !== undefined && types === undefined) return 'not-listed';
  if (types === undefined) {
    if (usesStandardDecorators(cls)) return 'standard';
    return isToolsetClass(cls) ? 'no-metadata' : 'undecorated';
  }
  if (token === Object) return 'object';
  if (token === Function) return 'function';
  if (token === undefined) return 'undefined';
  return 'primitive';
}

/** `@Toolset()` and `@Injectable()` classes are built without a provider entry. */
function isToolsetClass(token: unknown): boolean {
  return typeof token === 'function' && (Reflect.hasMetadata(TOOLSET_METADATA, token) || Reflect.hasOwnMetadata(INJECTABLE_METADATA, token));
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as Promise<unknown>).then === 'function';
}
