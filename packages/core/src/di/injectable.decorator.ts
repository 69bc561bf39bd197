import { INJECTABLE_METADATA } from '../metadata-keys';

/**
 * Marks a plain service class (a repository, an API client) as buildable by Toolsmith's container: its
 * constructor's dependencies are injected by type (TypeScript emits their types for decorated classes
 * only), and it needs no entry in `providers` to be built. `@Toolset()` classes are injectable already.
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
 * ```
 */
export function Injectable(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(INJECTABLE_METADATA, true, target);
  };
}
