import { USE_CLASS_VALIDATOR_METADATA } from '../metadata-keys';

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
  return (target) => {
    Reflect.defineMetadata(USE_CLASS_VALIDATOR_METADATA, true, target);
  };
}
