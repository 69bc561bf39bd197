import type { JsonType, PropertyRules } from './dto-rules';

/**
 * How Toolsmith writes one class-validator decorator as JSON Schema.
 * - `exact`: the schema accepts exactly what class-validator accepts (checked by the corpus test).
 * - `checked`: the schema states the rule as far as JSON Schema can (at least the type) and
 *   class-validator also runs for the DTO, so the outcome is class-validator's.
 */
export interface DecoratorRule {
  fidelity: 'exact' | 'checked';
  /** class-validator rejects `undefined` for this decorator (so the property becomes `required`). */
  rejectsUndefined: boolean;
  apply(rules: PropertyRules, constraints: readonly unknown[]): void;
}

const exact = (apply: DecoratorRule['apply'], rejectsUndefined = true): DecoratorRule => ({ fidelity: 'exact', rejectsUndefined, apply });
const checked = (apply: DecoratorRule['apply']): DecoratorRule => ({ fidelity: 'checked', rejectsUndefined: true, apply });
const typed = (...types: JsonType[]) => (rules: PropertyRules) => rules.restrictTypes(types);
const stringRule = checked(typed('string'));

/**
 * Supported class-validator decorators, by their metadata name. Anything else is a startup error
 * unless the DTO has `@UseClassValidator()`.
 */
export const DECORATOR_RULES: Readonly<Record<string, DecoratorRule>> = {
  isString: exact(typed('string')),
  isNumber: {
    // JSON cannot carry NaN or Infinity, so allowNaN/allowInfinity change nothing; maxDecimalPlaces needs class-validator.
    fidelity: 'exact',
    rejectsUndefined: true,
    apply: typed('number'),
  },
  isInt: exact(typed('integer')),
  isBoolean: exact(typed('boolean')),
  isArray: exact(typed('array')),
  isObject: exact(typed('object')),
  // class-validator compares with Object.keys(entity).map(k => entity[k]): a numeric enum's names count too.
  isEnum: exact((rules, [entity]) => rules.restrictValues(Object.keys(entity as object).map((k) => (entity as Record<string, unknown>)[k]))),
  isIn: exact((rules, [values]) => rules.restrictValues(Array.isArray(values) ? values : [])),
  isNotIn: exact((rules, [values]) => {
    if (Array.isArray(values)) rules.notValues.push(...values.filter((v) => v === null || typeof v !== 'object'));
  }, false),
  equals: exact((rules, [value]) => rules.restrictValues([value])),
  notEquals: exact((rules, [value]) => {
    if (value === null || typeof value !== 'object') rules.notValues.push(value);
  }, false),
  isNotEmpty: exact((rules) => rules.notValues.push('', null)),
  min: exact((rules, [n]) => {
    rules.restrictTypes(['number']);
    if (typeof n === 'number') rules.bound('minimum', n, 'max');
    else rules.refuseAll(`@Min(${describeArgument(n)}) is given no number, so class-validator refuses every value`, 'give @Min a number');
  }),
  max: exact((rules, [n]) => {
    rules.restrictTypes(['number']);
    if (typeof n === 'number') rules.bound('maximum', n, 'min');
    else rules.refuseAll(`@Max(${describeArgument(n)}) is given no number, so class-validator refuses every value`, 'give @Max a number');
  }),
  isPositive: exact((rules) => {
    rules.restrictTypes(['number']);
    rules.bound('exclusiveMinimum', 0, 'max');
  }),
  isNegative: exact((rules) => {
    rules.restrictTypes(['number']);
    rules.bound('exclusiveMaximum', 0, 'min');
  }),
  // validator.js divides by parseInt(n): the divisor is an integer, its sign irrelevant (@IsDivisibleBy(1.5) is
  // multipleOf 1, as class-validator judges it; tools.md says so).
  isDivisibleBy: exact((rules, [n]) => {
    rules.restrictTypes(['number']);
    const divisor = typeof n === 'number' ? Math.abs(parseInt(String(n), 10)) : NaN;
    if (divisor > 0) rules.constrain('multipleOf', divisor);
    else if (typeof n !== 'number') rules.refuseAll(`@IsDivisibleBy(${describeArgument(n)}) is given no number, so class-validator refuses every value`, 'give @IsDivisibleBy a whole number of at least 1');
    else {
      rules.refuseAll(
        `@IsDivisibleBy(${n}) divides by parseInt(${n}), which is ${Number.isNaN(divisor) ? 'NaN' : 0}, so class-validator refuses every value (it divides by the divisor's whole part)`,
        'divide by a whole number of at least 1',
      );
    }
  }),
  arrayMinSize: exact((rules, [n]) => {
    rules.restrictTypes(['array']);
    rules.bound('minItems', Number(n), 'max');
  }),
  arrayMaxSize: exact((rules, [n]) => {
    rules.restrictTypes(['array']);
    rules.bound('maxItems', Number(n), 'min');
  }),
  arrayNotEmpty: exact((rules) => {
    rules.restrictTypes(['array']);
    rules.bound('minItems', 1, 'max');
  }),
  // validator.js does not count U+FE0E/U+FE0F in a length, JSON Schema does: class-validator decides.
  minLength: checked((rules, [n]) => {
    rules.restrictTypes(['string']);
    rules.bound('minLength', Number(n), 'max');
  }),
  maxLength: checked((rules, [n]) => {
    rules.restrictTypes(['string']);
    rules.bound('maxLength', Number(n), 'min');
  }),
  isLength: checked((rules, [min, max]) => {
    rules.restrictTypes(['string']);
    if (typeof min === 'number') rules.bound('minLength', min, 'max');
    if (typeof max === 'number') rules.bound('maxLength', max, 'min');
  }),
  matches: checked((rules, [pattern, modifiers]) => {
    rules.restrictTypes(['string']);
    const source = pattern instanceof RegExp ? (pattern.flags ? undefined : pattern.source) : modifiers ? undefined : String(pattern);
    // JSON Schema patterns are Unicode-mode regexes; keep only patterns that mean the same there.
    if (source !== undefined && compilesInUnicodeMode(source)) rules.constrain('pattern', source);
  }),
  isEmail: stringRule,
  isUrl: stringRule,
  isUuid: stringRule,
  // Not `format: date-time`: validator.js accepts far more ISO 8601 than RFC 3339 (`2026`, `2026-11`, `2026-W47-2`,
  // `2026-328`, times without an offset), so ajv would reject values the DTO accepts. class-validator decides, and its
  // problems reach the model in the same response as ajv's (dto-problems.ts).
  isIso8601: stringRule,
  contains: stringRule,
  notContains: stringRule,
  isAlpha: stringRule,
  isAlphanumeric: stringRule,
  isLowercase: stringRule,
  isUppercase: stringRule,
  isHexColor: stringRule,
};

/** `isNumber` with `maxDecimalPlaces` cannot be written in JSON Schema. */
export function needsClassValidator(name: string, constraints: readonly unknown[]): boolean {
  if (name === 'isNumber') return (constraints[0] as { maxDecimalPlaces?: number } | undefined)?.maxDecimalPlaces !== undefined;
  return DECORATOR_RULES[name]?.fidelity === 'checked';
}

function compilesInUnicodeMode(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A decorator's argument as the message shows it (`"3"`, `undefined`). */
function describeArgument(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
