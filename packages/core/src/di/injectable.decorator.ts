import type { ToolsmithClassDecorator } from '../decorators/decorator-types';
import { defineClassMetadata } from '../decorators/standard-decorators';
import { INJECTABLE_METADATA } from '../metadata-keys';
import type { InjectionToken } from './container-adapter';

/** Options of the {@link Injectable} class decorator. */
export interface InjectableOptions {
  /**
   * The constructor's dependencies, in parameter order: needed with standard decorators (and with
   * esbuild, tsx or vitest), which record no constructor parameter types. With legacy decorators and
   * `emitDecoratorMetadata` the types are read instead (an entry here wins).
   */
  inject?: readonly InjectionToken[];
}

/**
 * Marks a plain service class (a repository, an API client) as buildable by Toolsmith's container: its
 * constructor's dependencies are injected by type (with legacy decorators and `emitDecoratorMetadata`,
 * TypeScript emits their types for decorated classes only) or from the `inject` list (standard
 * decorators), and it needs no entry in `providers` to be built. `@Toolset()` classes are injectable already.
 *
 * In a NestJS app, use Nest's own `@Injectable()` from `@nestjs/common` instead: there Nest's container
 * builds every class (see docs/nestjs.md).
 *
 * @example
 * ```ts
 * @Injectable()
 * class OrderRepository { constructor(private readonly db: Database) {} }
 *
 * @Toolset()
 * class OrderTools { constructor(private readonly orders: OrderRepository) {} }
 *
 * // Standard decorators: the dependencies are listed.
 * @Injectable({ inject: [Database] })
 * class CustomerRepository { constructor(private readonly db: Database) {} }
 * ```
 */
export function Injectable(options: InjectableOptions = {}): ToolsmithClassDecorator {
  return (target, context) => {
    defineClassMetadata(INJECTABLE_METADATA, { ...options }, target, context);
  };
}
