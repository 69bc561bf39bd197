import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { DefinitionSite } from '../errors/messages';
import { classValidatorLoaded, loadClassValidator, loadTransformerStorage } from '../validation/lazy-modules';
import { InvalidDtoError, UnsupportedDtoDecoratorError } from '../errors/tool-definition-errors';
import { DESIGN_TYPE, DTO_PROPERTY_METADATA, USE_CLASS_VALIDATOR_METADATA } from '../metadata-keys';
import type { JsonSchema } from '../model/json-schema';
import { otherClassTransformerWithType } from './class-transformer-copies';
import { DECORATOR_RULES, needsClassValidator } from './class-validator-rules';
import { PropertyRules } from './dto-rules';

/** The JSON Schema of a DTO class, and whether class-validator must also run for it. */
export interface DtoSchema {
  readonly schema: JsonSchema;
  /** True when a rule is only partly expressible (or the DTO opted in with `@UseClassValidator()`). */
  readonly runClassValidator: boolean;
}


/** Types `@Type(() => X)` may not name: they convert values instead of describing a nested DTO. */
const CONVERTING_TYPES = new Set<unknown>([String, Number, Boolean, Date, Object, Array, BigInt, Symbol]);

const cache = new WeakMap<Function, DtoSchema>();

/** True when `type` is a class with class-validator decorators, i.e. usable as a tool's DTO parameter. */
export function isDtoClass(type: unknown): type is Function {
  // Built-ins never carry class-validator rules; skipping them keeps startup from walking the metadata store.
  return typeof type === 'function' && !CONVERTING_TYPES.has(type) && type !== Function && validationMetadataOf(type).length > 0;
}

/**
 * The canonical JSON Schema of a class-validator DTO: one property per decorated property,
 * `required` unless `@IsOptional()` (or no rule rejects `undefined`), `additionalProperties: false`
 * (class-validator is run with `whitelist` + `forbidNonWhitelisted`). Built once per class.
 *
 * @throws {UnsupportedDtoDecoratorError} for a decorator JSON Schema cannot express, unless the DTO has `@UseClassValidator()`.
 * @throws {InvalidDtoError} for a DTO class-validator would reject every value of (no rules, contradictory rules, missing `@Type`).
 */
export function buildDtoSchema(dto: Function, site: DefinitionSite): DtoSchema {
  const cached = cache.get(dto);
  if (cached) return cached;
  const built = new DtoSchemaBuilder(site).build(dto, []);
  cache.set(dto, built);
  return built;
}

class DtoSchemaBuilder {
  constructor(private readonly site: DefinitionSite) {}

  build(dto: Function, path: readonly Function[]): DtoSchema {
    const site: DefinitionSite = { ...this.site, dtoName: dto.name };
    if (path.includes(dto)) {
      throw InvalidDtoError.because(
        site,
        `the DTO refers to itself (${[...path, dto].map((c) => c.name).join(' -> ')}), which a tool schema cannot express inline`,
        'flatten the recursion to a fixed depth, or give the schema explicitly with @Tool({ inputSchema })',
      );
    }
    const metadata = validationMetadataOf(dto);
    if (metadata.length === 0) {
      throw InvalidDtoError.because(
        site,
        'the class has no class-validator decorators, so class-validator rejects every value of it',
        'decorate each property (@IsString(), @IsInt(), @IsOptional(), …)',
      );
    }
    const optIn = Reflect.getMetadata(USE_CLASS_VALIDATOR_METADATA, dto) === true;
    let runClassValidator = optIn;
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const m of metadata) {
      const list = byProperty.get(m.propertyName) ?? [];
      list.push(m);
      byProperty.set(m.propertyName, list);
    }
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const [property, list] of byProperty) {
      const propertySite: DefinitionSite = { ...site, propertyName: property };
      const rules = new PropertyRules();
      const eachRules = new PropertyRules();
      let hasEach = false;
      if (this.convertsValue(dto, property, list)) {
        // class-transformer turns the value into something else (`"5"` into 5, a string into a Date)
        // after ajv saw it: only class-validator, which sees the converted value, can judge it.
        if (!optIn) throw new UnsupportedDtoDecoratorError(propertySite, this.convertingTypeName(dto, property), 'it converts the value after the JSON Schema check, so the schema would judge a different value than class-validator');
        rules.conditional = true;
        runClassValidator = true;
      }
      for (const m of list) {
        const perItem = m.each === true && m.type === 'customValidation';
        const outcome = this.applyMetadata(dto, property, m, perItem ? eachRules : rules, propertySite, path, optIn);
        if (outcome.runClassValidator) runClassValidator = true;
        if (outcome.rejectsUndefined) rules.required = true;
        hasEach ||= perItem;
      }
      if (hasEach) {
        if (!rules.types || rules.types.some((t) => t !== 'array')) {
          throw InvalidDtoError.because(
            propertySite,
            `${eachRules.decorators.join(', ')} use { each: true } on a property that may not be an array, where class-validator applies them to the value itself`,
            'add @IsArray() to the property',
          );
        }
        rules.items = eachRules;
      }
      const refused = rules.refusesAll ?? eachRules.refusesAll;
      if (refused) throw InvalidDtoError.because(propertySite, refused.reason, refused.fix);
      if (rules.isContradictory() || eachRules.isContradictory()) {
        throw InvalidDtoError.contradictory(propertySite, [...rules.decorators, ...eachRules.decorators].map((d) => `@${d}`).join(', '));
      }
      const description: string | undefined = Reflect.getMetadata(DTO_PROPERTY_METADATA, dto.prototype, property);
      properties[property] = rules.toSchema(description);
      if (rules.required && !rules.optional && !rules.conditional) required.push(property);
    }
    const schema: JsonSchema = { type: 'object' };
    const description: string | undefined = Reflect.getOwnMetadata(DTO_PROPERTY_METADATA, dto);
    if (description) schema.description = description;
    schema.properties = properties;
    if (required.length) schema.required = required;
    schema.additionalProperties = false;
    return { schema, runClassValidator };
  }

  /** A `@Type(() => Number | String | Boolean | Date | …)` outside `@ValidateNested()`. */
  private convertsValue(dto: Function, property: string, list: readonly ValidationMetadata[]): boolean {
    if (list.some((m) => m.type === 'nestedValidation')) return false;
    return CONVERTING_TYPES.has(loadTransformerStorage().findTypeMetadata(dto, property)?.typeFunction());
  }

  private convertingTypeName(dto: Function, property: string): string {
    const type = loadTransformerStorage().findTypeMetadata(dto, property)?.typeFunction() as Function;
    return `Type(() => ${type.name})`;
  }

  private applyMetadata(
    dto: Function,
    property: string,
    m: ValidationMetadata,
    rules: PropertyRules,
    site: DefinitionSite,
    path: readonly Function[],
    optIn: boolean,
  ): { runClassValidator: boolean; rejectsUndefined: boolean } {
    const unsupported = (decorator: string, reason: string) => {
      if (!optIn) throw new UnsupportedDtoDecoratorError(site, decorator, reason);
      rules.conditional = true;
      return { runClassValidator: true, rejectsUndefined: false };
    };
    if (m.validateIf) return unsupported(displayName(m), 'its validateIf option depends on the other values');
    switch (m.type) {
      case 'conditionalValidation':
        if (m.name === 'isOptional') {
          rules.optional = true;
          return { runClassValidator: false, rejectsUndefined: false };
        }
        return unsupported('ValidateIf', 'it depends on the other values of the object');
      case 'isDefined':
        rules.decorators.push('IsDefined');
        rules.notValues.push(null);
        return { runClassValidator: false, rejectsUndefined: true };
      case 'whitelistValidation':
        return { runClassValidator: false, rejectsUndefined: false };
      case 'nestedValidation':
        return this.applyNested(dto, property, rules, site, path);
      case 'customValidation': {
        const name = m.name ?? '';
        const rule = DECORATOR_RULES[name];
        if (!rule) return unsupported(displayName(m), 'it is a custom or unlisted validator');
        rules.decorators.push(displayName(m));
        rule.apply(rules, m.constraints ?? []);
        return { runClassValidator: needsClassValidator(name, m.constraints ?? []), rejectsUndefined: rule.rejectsUndefined };
      }
      default:
        return unsupported(displayName(m), `class-validator type "${m.type}" has no JSON Schema form`);
    }
  }

  private applyNested(dto: Function, property: string, rules: PropertyRules, site: DefinitionSite, path: readonly Function[]) {
    rules.decorators.push('ValidateNested');
    const typeFunction = loadTransformerStorage().findTypeMetadata(dto, property)?.typeFunction;
    const nestedClass = typeFunction?.();
    if (nestedClass === undefined) {
      // "Add @Type" would be wrong advice when the DTO has it, recorded by another copy of class-transformer.
      const copies = otherClassTransformerWithType(dto, property);
      if (copies) throw InvalidDtoError.duplicateClassTransformer(site, copies.core, copies.other);
    }
    if (typeof nestedClass !== 'function' || CONVERTING_TYPES.has(nestedClass)) {
      throw InvalidDtoError.because(
        site,
        nestedClass
          ? `@Type(() => ${(nestedClass as Function).name}) converts values instead of naming a nested DTO class`
          : '@ValidateNested() has no @Type(() => NestedDto), so class-transformer leaves the value a plain object and class-validator rejects it',
        'add @Type(() => NestedDto) from class-transformer next to @ValidateNested()',
      );
    }
    const nested = this.build(nestedClass as Function, [...path, dto]);
    const isArray = Reflect.getMetadata(DESIGN_TYPE, dto.prototype, property) === Array;
    rules.restrictTypes([isArray ? 'array' : 'object']);
    // class-validator skips nested validation for undefined (so not required) and rejects null (the type says so).
    rules.nested = nested.schema;
    return { runClassValidator: nested.runClassValidator, rejectsUndefined: false };
  }
}

function validationMetadataOf(dto: Function): ValidationMetadata[] {
  // No copy of class-validator loaded yet means no class has its rules: nothing to load or walk.
  if (!classValidatorLoaded()) return [];
  return loadClassValidator().getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false, undefined);
}

function displayName(m: ValidationMetadata): string {
  const name = m.name ?? m.type;
  return name.charAt(0).toUpperCase() + name.slice(1);
}
