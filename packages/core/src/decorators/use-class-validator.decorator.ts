import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { legacyOnlyDecoratorMessage } from '../errors/messages';
import { USE_CLASS_VALIDATOR_METADATA } from '../metadata-keys';
import { isDecoratorContext } from './standard-decorators';

/**
 * Makes class-validator run on this DTO (after the JSON Schema check), which lets it use
 * decorators JSON Schema cannot express (`@ValidateIf`, `@Validate(CustomConstraint)`, `@IsDate`, …).
 * Those rules are then checked but not shown to the model, so say them in a `@Describe` text.
 * Nested DTOs are validated with their parent.
 *
 * @example
 * ```ts
 * @UseClassValidator()
 * class BookingDto {
 *   @IsString() from!: string;
 *   @ValidateIf((o) => o.from !== 'home') @IsString() to?: string;
 * }
 * ```
 */
export function UseClassValidator(): ClassDecorator {
  return ((target: Function, context?: unknown) => {
    if (isDecoratorContext(context)) throw new InvalidDecoratorError(legacyOnlyDecoratorMessage('@UseClassValidator()', 'dto'));
    Reflect.defineMetadata(USE_CLASS_VALIDATOR_METADATA, true, target);
  }) as ClassDecorator;
}
