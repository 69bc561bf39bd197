import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { legacyOnlyDecoratorMessage } from '../errors/messages';
import { DTO_PROPERTY_METADATA } from '../metadata-keys';
import { isDecoratorContext } from './standard-decorators';

/**
 * Gives a DTO class or one of its properties a description for the model; it becomes the schema's
 * `description`. Validation rules come from class-validator decorators; this adds only the words.
 *
 * @example
 * ```ts
 * @Describe('A refund request')
 * class RefundDto {
 *   @Describe('Amount in cents') @IsInt() @Min(1) amount!: number;
 * }
 * ```
 */
export function Describe(description: string): ClassDecorator & PropertyDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    if (isDecoratorContext(propertyKey)) throw new InvalidDecoratorError(legacyOnlyDecoratorMessage('@Describe()', 'dto'));
    if (propertyKey === undefined) Reflect.defineMetadata(DTO_PROPERTY_METADATA, description, target);
    else Reflect.defineMetadata(DTO_PROPERTY_METADATA, description, target, propertyKey);
  }) as ClassDecorator & PropertyDecorator;
}
