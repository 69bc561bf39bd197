import { DependencyResolutionError } from '../errors/dependency-resolution-error';
import { Toolset } from '../tools/toolset';
import { Container } from './container';
import { Inject } from './inject.decorator';
import { Injectable } from './injectable.decorator';

class Clock {
  now() {
    return 42;
  }
}

@Toolset()
class Service {
  constructor(
    readonly clock: Clock,
    @Inject('API_KEY') readonly apiKey: string,
  ) {}
}

@Toolset()
class NeedsService {
  constructor(readonly service: Service) {}
}

describe('Container', () => {
  it('injects constructor dependencies by type and by @Inject token; singletons by default', () => {
    const container = new Container([Clock, { provide: 'API_KEY', useValue: 'k' }]);
    const top = container.resolve(NeedsService) as NeedsService;
    expect(top.service.clock.now()).toBe(42);
    expect(top.service.apiKey).toBe('k');
    expect(container.resolve(NeedsService)).toBe(top);
    expect(container.resolve(Clock)).toBe(top.service.clock);
  });

  it('supports useClass, useFactory with inject, and transient scope', () => {
    class FakeClock extends Clock {
      override now() {
        return 1;
      }
    }
    let built = 0;
    const container = new Container([
      { provide: Clock, useClass: FakeClock },
      { provide: 'API_KEY', useFactory: (clock: Clock) => `key-${clock.now()}-${++built}`, inject: [Clock], scope: 'transient' },
    ]);
    expect((container.resolve(Clock) as Clock).now()).toBe(1);
    expect(container.resolve('API_KEY')).toBe('key-1-1');
    expect(container.resolve('API_KEY')).toBe('key-1-2');
    expect(container.isSingleton('API_KEY')).toBe(false);
    expect(container.isSingleton(Clock)).toBe(true);
  });

  it('resolves async factories and shares one pending build', async () => {
    const container = new Container([Clock, { provide: 'API_KEY', useFactory: async () => 'async-key' }]);
    const first = container.resolve(Service);
    const second = container.resolve(Service);
    expect(first).toBeInstanceOf(Promise);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect((a as Service).apiKey).toBe('async-key');
    expect(container.resolve(Service)).toBe(a);
  });

  it('names the dependency chain for a missing provider', () => {
    const container = new Container([{ provide: 'API_KEY', useValue: 'k' }]);
    expect(() => container.resolve(NeedsService)).toThrow(
      'Cannot resolve Clock: no provider is registered for it (dependency chain: NeedsService -> Service -> Clock). ' +
        'Fix: add it to the providers, e.g. { provide: Clock, useValue: ... } or useClass/useFactory.',
    );
    try {
      container.resolve('missing');
    } catch (error) {
      expect(DependencyResolutionError.isInstance(error)).toBe(true);
      expect((error as DependencyResolutionError).code).toBe('MISSING_PROVIDER');
      expect((error as DependencyResolutionError).chain).toEqual(['"missing"']);
    }
  });

  it('names the cycle', () => {
    const container = new Container([
      { provide: 'a', useFactory: (b: unknown) => ({ b }), inject: ['b'] },
      { provide: 'b', useFactory: (a: unknown) => ({ a }), inject: ['a'] },
    ]);
    expect(() => container.resolve('a')).toThrow(
      'Cannot resolve "a": its dependencies form a cycle ("a" -> "b" -> "a"). Fix: break the cycle, e.g. inject a factory or move the shared part into its own provider.',
    );
  });

  it('explains a parameter tsc emitted as Function: a class imported with import type (or a function type)', () => {
    @Toolset()
    class UsesTypeImport {
      constructor(readonly store: unknown) {}
    }
    // What tsc emits for `constructor(store: Store)` with `import type { Store }` (a per-file transpiler emits Object).
    Reflect.defineMetadata('design:paramtypes', [Function], UsesTypeImport);
    expect(() => new Container().resolve(UsesTypeImport)).toThrow(
      'Cannot resolve UsesTypeImport: constructor parameter #1 is typed with a class imported with `import type` (or a function type), which tsc emits as Function (dependency chain: UsesTypeImport). Fix: import the class as a value (`import { X }`, not `import type { X }`), or inject constructor parameter #1 by token',
    );
  });

  it('explains a parameter typed with an interface (or an import type class): emitted as Object', () => {
    interface Api {
      get(): string;
    }
    @Toolset()
    class UsesInterface {
      constructor(readonly api: Api) {}
    }
    expect(() => new Container().resolve(UsesInterface)).toThrow(
      'Cannot resolve UsesInterface: constructor parameter #1 is typed with an interface, a type alias, a union or a class imported with `import type`, which TypeScript all emits as Object (dependency chain: UsesInterface). Fix: import a class as a value (`import { X }`, not `import type { X }`), or inject constructor parameter #1 by token with @Inject(token) and a provider { provide: token, useValue/useClass/useFactory }.',
    );
  });

  it('tells a primitive parameter, a class without @Injectable(), a build without metadata and a circular import apart', () => {
    @Injectable()
    class Greeter {
      constructor(readonly greeting: string) {}
    }
    expect(() => new Container().resolve(Greeter)).toThrow('Cannot resolve Greeter: constructor parameter #1 is a String, a value the container cannot build by type');

    class Plain {
      constructor(readonly clock: Clock) {}
    }
    const undecorated = () => new Container([Plain, Clock]).resolve(Plain);
    expect(undecorated).toThrow('Cannot resolve Plain: it has no @Injectable(), so TypeScript emitted no types for its constructor parameters');
    expect(undecorated).toThrow('Fix: decorate Plain with @Injectable() from @toolsmith/core');

    // What esbuild, tsx and vitest produce: the decorator ran, no design:paramtypes.
    @Injectable()
    class Bundled {
      constructor(readonly clock: Clock) {}
    }
    Reflect.deleteMetadata('design:paramtypes', Bundled);
    const bundled = () => new Container().resolve(Bundled);
    expect(bundled).toThrow('Cannot resolve Bundled: it is decorated, but its constructor parameters have no types at runtime');
    expect(bundled).not.toThrow(/decorate Bundled with @Injectable/);

    // A circular import: the parameter's class was still undefined when the metadata was written.
    @Injectable()
    class Early {
      constructor(readonly later: Clock) {}
    }
    Reflect.defineMetadata('design:paramtypes', [undefined], Early);
    expect(() => new Container().resolve(Early)).toThrow('the type of constructor parameter #1 was undefined when Early was defined, usually because two files import each other');
  });

  it('wraps a throwing factory with the chain and keeps the cause', async () => {
    const boom = new Error('no db');
    const container = new Container([{ provide: 'db', useFactory: () => Promise.reject(boom) }]);
    await expect(container.resolve('db')).rejects.toMatchObject({ code: 'PROVIDER_FAILED', cause: boom });
    const sync = new Container([{ provide: 'db', useFactory: () => { throw boom; } }]);
    expect(() => sync.resolve('db')).toThrow('Cannot resolve "db": its provider threw: no db (dependency chain: "db")');
  });

  it('rejects malformed providers', () => {
    expect(() => new Container([{ provide: 'x' } as never])).toThrow('needs one of useValue, useClass or useFactory');
    expect(() => new Container([42 as never])).toThrow('A provider must be a class');
  });

  describe('assertResolvable (static check, builds nothing)', () => {
    it('passes a complete graph of classes, @Inject tokens and factory inject lists without building anything', () => {
      let built = 0;
      const container = new Container([
        { provide: Clock, useFactory: () => (built++, new Clock()) },
        { provide: 'API_KEY', useFactory: (clock: Clock) => `k${clock.now()}`, inject: [Clock] },
      ]);
      expect(() => container.assertResolvable(NeedsService)).not.toThrow();
      expect(built).toBe(0);
    });

    it('throws MISSING_PROVIDER naming the chain and the fix, for a constructor dependency and for a factory\'s inject list', () => {
      expect(() => new Container([{ provide: 'API_KEY', useValue: 'k' }]).assertResolvable(NeedsService)).toThrow(
        'Cannot resolve Clock: no provider is registered for it (dependency chain: NeedsService -> Service -> Clock). ' +
          'Fix: add it to the providers, e.g. { provide: Clock, useValue: ... } or useClass/useFactory.',
      );
      const viaFactory = new Container([Clock, { provide: 'API_KEY', useFactory: (url: string) => url, inject: ['VAULT_URL'] }]);
      try {
        viaFactory.assertResolvable(NeedsService);
        throw new Error('expected a DependencyResolutionError');
      } catch (error) {
        expect((error as DependencyResolutionError).code).toBe('MISSING_PROVIDER');
        expect((error as DependencyResolutionError).chain).toEqual(['NeedsService', 'Service', '"API_KEY"', '"VAULT_URL"']);
      }
    });

    it('finds cycles and unknown parameter types too', () => {
      const cyclic = new Container([
        { provide: 'a', useFactory: (b: unknown) => ({ b }), inject: ['b'] },
        { provide: 'b', useFactory: (a: unknown) => ({ a }), inject: ['a'] },
      ]);
      expect(() => cyclic.assertResolvable('a')).toThrow('its dependencies form a cycle ("a" -> "b" -> "a")');
      interface Api {
        get(): string;
      }
      @Toolset()
      class UsesInterface {
        constructor(readonly api: Api) {}
      }
      expect(() => new Container().assertResolvable(UsesInterface)).toThrow('constructor parameter #1 is typed with an interface');
    });

    it('walks a shared dependency once (a diamond is no cycle)', () => {
      @Toolset()
      class Left {
        constructor(readonly clock: Clock) {}
      }
      @Toolset()
      class Right {
        constructor(readonly clock: Clock) {}
      }
      @Toolset()
      class Top {
        constructor(
          readonly left: Left,
          readonly right: Right,
        ) {}
      }
      expect(() => new Container([Clock]).assertResolvable(Top)).not.toThrow();
      expect(() => new Container().assertResolvable(Top)).toThrow('dependency chain: Top -> Left -> Clock');
    });
  });
});

describe('@Injectable()', () => {
  const { Injectable } = jest.requireActual<typeof import('./injectable.decorator')>('./injectable.decorator');

  it('lets the container build a plain service whose constructor takes another class, with no provider entry', () => {
    class Database {
      readonly name = 'db';
    }
    @Injectable()
    class OrderRepository {
      constructor(readonly db: Database) {}
    }
    @Injectable()
    class OrderService {
      constructor(readonly orders: OrderRepository) {}
    }
    const container = new Container([Database]);
    const service = container.resolve(OrderService) as OrderService;
    expect(service.orders.db.name).toBe('db');
    expect(service.orders).toBe(container.resolve(OrderRepository));
  });

  it('without it, the error names @Injectable() as the fix', () => {
    class Database {}
    class Repository {
      constructor(readonly db: Database) {}
    }
    expect(() => new Container([Repository]).resolve(Repository)).toThrow(/@Injectable\(\)/);
  });
});
