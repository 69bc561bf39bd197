import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { decoratorOnConstructorMessage, legacyOnlyDecoratorMessage } from '../errors/messages';
import { CTX_PARAM_METADATA } from '../metadata-keys';
import { isDecoratorContext } from './standard-decorators';

/**
 * Marks the parameter that receives the per-call {@link ToolContext}. Needed only when the parameter's
 * type is not the `ToolContext` class itself (for example an interface); a parameter typed
 * `ToolContext` is injected without it. Never part of the schema.
 *
 * @example
 * ```ts
 * @Tool()
 * addToCart(@Param('sku') sku: string, @Ctx() ctx: ToolContext) { ctx.state.set('lastSku', sku); }
 * ```
 */
export function Ctx(): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (isDecoratorContext(propertyKey)) {
      throw new InvalidDecoratorError(legacyOnlyDecoratorMessage('@Ctx()', 'ctx'));
    }
    if (propertyKey === undefined) {
      throw new InvalidDecoratorError(decoratorOnConstructorMessage('@Ctx()'));
    }
    const indexes: number[] = Reflect.getOwnMetadata(CTX_PARAM_METADATA, target, propertyKey) ?? [];
    Reflect.defineMetadata(CTX_PARAM_METADATA, [...indexes, index], target, propertyKey);
  };
}
