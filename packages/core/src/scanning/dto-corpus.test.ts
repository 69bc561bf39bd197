import { Type, plainToInstance } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  Equals,
  IsArray,
  IsBoolean,
  IsDefined,
  IsDivisibleBy,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  IsDate,
  IsUrl,
  IsISO8601,
  Contains,
  NotContains,
  IsAlpha,
  IsAlphanumeric,
  IsLowercase,
  IsUppercase,
  IsHexColor,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  NotEquals,
  ValidateIf,
  ValidateNested,
  validateSync,
} from 'class-validator';
import fc from 'fast-check';
import { UseClassValidator } from '../decorators/use-class-validator.decorator';
import { validatorFor } from '../validation/schema-validator';
import { buildDtoSchema } from './dto-schema';
import { CLASS_VALIDATOR_OPTIONS } from './parameter-binder';

// The corpus: for every supported decorator, the same inputs go to ajv-with-our-schema and to
// class-validator (after class-transformer, as a tool call does); both must say the same.

enum Color {
  Red = 'red',
  Green = 'green',
}
enum Level {
  Low = 1,
  High = 2,
}

class TypeChecks {
  @IsString() s!: string;
  @IsNumber() n!: number;
  @IsInt() i!: number;
  @IsBoolean() b!: boolean;
}
class Optionals {
  @IsOptional() @IsString() s?: string;
  @IsOptional() @IsInt() @Min(0) i?: number;
  @IsOptional() @IsEnum(Color) c?: Color;
  @IsOptional() @Equals('x') e?: string;
  @IsOptional() @IsNotEmpty() ne?: unknown;
}
class Enums {
  @IsEnum(Color) color!: Color;
  @IsEnum(Level) level!: Level;
  @IsIn(['a', 'b', 3, null]) pick!: unknown;
}
class Negations {
  @IsNotIn(['x', 'y', 0]) notIn!: unknown;
  @NotEquals('z') notZ!: unknown;
  @IsDefined() defined!: unknown;
  @IsNotEmpty() notEmpty!: unknown;
  @Equals(7) seven!: number;
}
class Numbers {
  @Min(-2) @Max(5.5) range!: number;
  @IsPositive() pos!: number;
  @IsNegative() neg!: number;
  @IsDivisibleBy(3) div!: number;
  @IsInt() @Min(1) @Max(3) small!: number;
}
class Arrays {
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) tags!: string[];
  @IsOptional() @ArrayNotEmpty() @IsInt({ each: true }) @Min(0, { each: true }) nums?: number[];
  @IsArray() any!: unknown[];
}
class Address {
  @IsString() @IsNotEmpty() street!: string;
  @IsOptional() @IsInt() @Min(0) zip?: number;
}
class Item {
  @IsString() sku!: string;
  @IsInt() @IsPositive() qty!: number;
}
class Nested {
  @ValidateNested() @Type(() => Address) address!: Address;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items?: Item[];
  @IsOptional() @ValidateNested() @Type(() => Address) billing?: Address;
}
class Objects {
  @IsObject() meta!: Record<string, unknown>;
  @Allow() anything!: unknown;
}
// Decorators JSON Schema states only in part: class-validator also runs (automatically).
class Checked {
  @MinLength(2) @MaxLength(5) short!: string;
  @Matches(/^[a-z]+$/) lower!: string;
  @IsEmail() email!: string;
  @IsUUID('4') id!: string;
  @IsNumber({ maxDecimalPlaces: 2 }) price!: number;
}
class CheckedStrings {
  @IsUrl() url!: string;
  @IsISO8601() when!: string;
  @Contains('ab') @NotContains('zz') seed!: string;
  @IsOptional() @IsAlpha() alpha?: string;
  @IsOptional() @IsAlphanumeric() alnum?: string;
  @IsOptional() @IsLowercase() lower?: string;
  @IsOptional() @IsUppercase() upper?: string;
  @IsOptional() @IsHexColor() color?: string;
}
class Inherited extends Address {
  @IsOptional() @IsString() unit?: string;
}
@UseClassValidator()
class Converted {
  @Type(() => Date) @IsDate() when!: Date;
  @IsOptional() @Type(() => Number) @IsInt() count?: number;
}
@UseClassValidator()
class Conditional {
  @IsString() kind!: string;
  @ValidateIf((o: Conditional) => o.kind === 'box') @IsInt() @Min(1) size?: number;
}

const classValidatorAccepts = (dto: Function, input: unknown): boolean => {
  try {
    return validateSync(plainToInstance(dto as new () => object, input) as object, CLASS_VALIDATOR_OPTIONS).length === 0;
  } catch {
    // e.g. maxDecimalPlaces on 5e-324 throws inside class-validator; a tool call reports it as invalid arguments.
    return false;
  }
};

/** What a tool call does: ajv on the schema, then class-validator when the DTO needs it. */
const toolsmithAccepts = (dto: Function, input: unknown): boolean => {
  const { schema, runClassValidator } = buildDtoSchema(dto, { className: 'Corpus' });
  if (!validatorFor(schema)(input)) return false;
  return runClassValidator ? classValidatorAccepts(dto, input) : true;
};

const scalar = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -10, max: 10 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -20, max: 20 }),
  fc.boolean(),
  fc.constant(null),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom('a', 'street', 'zip', 'sku', 'qty'), tie('value'), { maxKeys: 3 }),
})).value;

/** Random objects over the DTO's keys, biased toward the values its decorators care about. */
function inputsFor(keys: string[], interesting: unknown[]): fc.Arbitrary<Record<string, unknown>> {
  const value = fc.oneof(json, fc.constantFrom(...interesting), fc.array(fc.constantFrom(...interesting), { maxLength: 4 }));
  const entries = Object.fromEntries(keys.map((k) => [k, value]));
  return fc.tuple(fc.record(entries, { requiredKeys: [] }), fc.option(fc.constant({ extra: 1 }), { freq: 8 })).map(([record, extra]) => ({
    ...record,
    ...(extra ?? {}),
  }));
}

interface CorpusCase {
  dto: Function;
  interesting: unknown[];
  /** Valid inputs written by hand, so acceptance is exercised too. */
  valid: Record<string, unknown>[];
  /** Generators of mostly-valid inputs. */
  generated?: fc.Arbitrary<Record<string, unknown>>;
  /** Inputs outside the corpus: the documented differences below. */
  outside?: (input: Record<string, unknown>) => boolean;
}

const address = fc.record(
  { street: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(1)), zip: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constant(null), fc.constant('1')) },
  { requiredKeys: [] },
);
const item = fc.record({ sku: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null)), qty: fc.integer({ min: -1, max: 3 }) }, { requiredKeys: [] });

const cases: Record<string, CorpusCase> = {
  TypeChecks: { dto: TypeChecks, interesting: ['x', 1, 1.5, true, -0], valid: [{ s: '', n: 1.5, i: -3, b: false }] },
  Optionals: {
    dto: Optionals,
    interesting: ['x', 'red', 'green', 0, -1, '', null, 'blue'],
    valid: [{}, { s: null, i: null, c: null, e: null, ne: null }, { s: 'a', i: 0, c: 'red', e: 'x', ne: 0 }],
  },
  Enums: {
    dto: Enums,
    interesting: ['red', 'green', 'Red', 1, 2, 'Low', 'High', '1', 'a', 'b', 3, null, 'c'],
    valid: [{ color: 'red', level: 1, pick: null }, { color: 'green', level: 'High', pick: 3 }],
  },
  Negations: {
    dto: Negations,
    interesting: ['x', 'y', 0, 'z', '', null, 7, '7', false],
    valid: [{ defined: 0, notEmpty: false, seven: 7 }, { notIn: 'a', notZ: null, defined: '', notEmpty: 0, seven: 7 }],
  },
  Numbers: {
    dto: Numbers,
    interesting: [-2, -2.01, 5.5, 5.51, 0, -0, 1, -1, 3, 6, 9, 4.5, 2, '3'],
    valid: [{ range: -2, pos: 0.1, neg: -0.1, div: -9, small: 3 }, { range: 5.5, pos: 1, neg: -1, div: 0, small: 1 }],
  },
  Arrays: {
    dto: Arrays,
    interesting: ['a', 1, -1, 0, 1.5, [], ['a'], ['a', 'b', 'c', 'd'], [1, 2], [0, -1], null],
    valid: [{ tags: ['a'], any: [] }, { tags: ['a', 'b', 'c'], nums: [0, 5], any: [1, 'x', null] }, { tags: [''], nums: null, any: [[]] }],
  },
  Nested: {
    dto: Nested,
    interesting: [null, 'x', {}, { street: 'a' }, [{ sku: 'a', qty: 1 }], []],
    // A non-array @ValidateNested property given an array, or arrays in arrays: see "documented differences".
    outside: (input) =>
      Array.isArray(input.address) ||
      Array.isArray(input.billing) ||
      (Array.isArray(input.items) && input.items.some(Array.isArray)),
    valid: [
      { address: { street: 'Main' } },
      { address: { street: 'x', zip: 0 }, items: [{ sku: 'a', qty: 2 }], billing: null },
      {},
    ],
    generated: fc.record(
      {
        address: fc.oneof(address, fc.constant(null), fc.constant('x')),
        items: fc.oneof(fc.array(fc.oneof(item, fc.constant(5)), { maxLength: 3 }), fc.constant(null)),
        billing: fc.oneof(address, fc.constant(null)),
      },
      { requiredKeys: [] },
    ),
  },
  Objects: {
    dto: Objects,
    interesting: [{}, { a: 1 }, [], null, 'x', 0],
    valid: [{ meta: {} }, { meta: { a: [1] }, anything: [null] }],
  },
  Checked: {
    dto: Checked,
    interesting: ['a', 'ab', 'abcde', 'abcdef', 'AB', 'a@b.co', 'not-an-email', '7f9c24e5-0d2b-4c2a-9b1e-3f6a2c1d4e5f', 1, 1.25, 1.255, null],
    valid: [{ short: 'ab', lower: 'abc', email: 'a@b.co', id: '7f9c24e5-0d2b-4c2a-9b1e-3f6a2c1d4e5f', price: 1.25 }],
  },
  CheckedStrings: {
    dto: CheckedStrings,
    interesting: ['https://example.com', 'nope', '2024-01-02', '2024-13-40', 'xaby', 'abzz', 'ab', 'ABC', 'abc', 'a1', '#fff', 'fff', 1, null],
    valid: [
      { url: 'https://example.com', when: '2024-01-02', seed: 'ab' },
      { url: 'http://a.io/x', when: '2024-01-02T03:04:05Z', seed: 'xaby', alpha: 'abc', alnum: 'a1', lower: 'abc', upper: 'ABC', color: '#fff', },
    ],
  },
  Inherited: {
    dto: Inherited,
    interesting: ['x', '', 0, 1, null],
    valid: [{ street: 'a' }, { street: 'a', zip: 1, unit: '4B' }],
  },
  Converted: {
    dto: Converted,
    interesting: ['2024-01-02', 'not a date', 0, 1700000000000, '5', 5, 'x', null, true],
    valid: [{ when: '2024-01-02' }, { when: 0, count: '5' }, { when: '2024-01-02T03:04:05Z', count: 7 }],
  },
  Conditional: {
    dto: Conditional,
    interesting: ['box', 'bag', 0, 1, 2.5, null],
    valid: [{ kind: 'bag' }, { kind: 'bag', size: 'anything' }, { kind: 'box', size: 2 }],
  },
};

describe('DTO corpus: Toolsmith accepts exactly what class-validator accepts', () => {
  it.each(Object.entries(cases))('%s: hand-written valid inputs pass both', (_name, c) => {
    for (const input of c.valid) {
      expect({ input, classValidator: classValidatorAccepts(c.dto, input) }).toEqual({ input, classValidator: true });
      expect({ input, toolsmith: toolsmithAccepts(c.dto, input) }).toEqual({ input, toolsmith: true });
    }
  });

  it.each(Object.entries(cases))('%s: random inputs get the same verdict', (_name, c) => {
    const keys = Object.keys(buildDtoSchema(c.dto, { className: 'Corpus' }).schema.properties as object);
    const verdicts = { accepted: 0, rejected: 0 };
    const arbitrary = c.generated ? fc.oneof(c.generated, inputsFor(keys, c.interesting)) : inputsFor(keys, c.interesting);
    fc.assert(
      fc.property(fc.oneof(arbitrary, fc.constantFrom(...c.valid)).filter((input) => !c.outside?.(input)), (input) => {
        const expected = classValidatorAccepts(c.dto, input);
        verdicts[expected ? 'accepted' : 'rejected']++;
        expect(toolsmithAccepts(c.dto, input)).toBe(expected);
      }),
      { numRuns: 400, seed: process.env.CORPUS_SEED ? Number(process.env.CORPUS_SEED) : 42 },
    );
    // The corpus has teeth only if it exercises both outcomes.
    expect(verdicts.accepted).toBeGreaterThan(10);
    expect(verdicts.rejected).toBeGreaterThan(10);
  });

  it('needs class-validator only for the partly expressible decorators', () => {
    const needsIt = Object.entries(cases)
      .filter(([, c]) => buildDtoSchema(c.dto, { className: 'Corpus' }).runClassValidator)
      .map(([name]) => name);
    expect(needsIt).toEqual(['Checked', 'CheckedStrings', 'Converted', 'Conditional']);
  });
});

describe('documented differences (the schema is stricter than class-validator)', () => {
  it('rejects arrays nested inside a @ValidateNested array, which class-validator walks into', () => {
    const input = { address: { street: 'a' }, items: [[{ sku: 'a', qty: 1 }]] };
    expect(classValidatorAccepts(Nested, input)).toBe(true);
    expect(toolsmithAccepts(Nested, input)).toBe(false);
  });

  it('rejects an array given to a non-array @ValidateNested property, which class-validator walks into', () => {
    expect(classValidatorAccepts(Nested, { billing: [] })).toBe(true);
    expect(toolsmithAccepts(Nested, { billing: [] })).toBe(false);
  });

  it('counts U+FE0F in maxLength, which validator.js skips', () => {
    const input = { short: 'ab\uFE0F\uFE0F\uFE0F\uFE0F', lower: 'a', email: 'a@b.co', id: '7f9c24e5-0d2b-4c2a-9b1e-3f6a2c1d4e5f', price: 1 };
    expect(classValidatorAccepts(Checked, input)).toBe(true);
    expect(toolsmithAccepts(Checked, input)).toBe(false);
  });
});

describe('@IsDivisibleBy: the schema divides as class-validator does (tools.md)', () => {
  class Halves {
    @IsDivisibleBy(1.5) n!: number;
  }
  class Thirds {
    @IsDivisibleBy(3) n!: number;
  }
  class Ones {
    @IsDivisibleBy(1) n!: number;
  }

  it('by the divisor\'s whole part: @IsDivisibleBy(1.5) is multipleOf 1, which is what class-validator checks', () => {
    expect(buildDtoSchema(Halves, { className: 'Corpus' }).schema.properties).toEqual({ n: { type: 'number', multipleOf: 1 } });
    for (const n of [2, 3, -4, 0, 1.5, 2.5, 4.5, Number.MAX_SAFE_INTEGER]) {
      expect({ n, toolsmith: toolsmithAccepts(Halves, { n }) }).toEqual({ n, toolsmith: classValidatorAccepts(Halves, { n }) });
    }
    expect(toolsmithAccepts(Halves, { n: 2 })).toBe(true);
    expect(toolsmithAccepts(Halves, { n: 1.5 })).toBe(false);
  });

  it('exactly up to Number.MAX_SAFE_INTEGER; beyond it ajv (a division) and class-validator (a remainder) can disagree either way', () => {
    for (const n of [Number.MAX_SAFE_INTEGER - 2, Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      expect({ n, toolsmith: toolsmithAccepts(Thirds, { n }) }).toEqual({ n, toolsmith: classValidatorAccepts(Thirds, { n }) });
    }
    expect([classValidatorAccepts(Thirds, { n: 2 ** 60 }), toolsmithAccepts(Thirds, { n: 2 ** 60 })]).toEqual([false, true]);
    expect([classValidatorAccepts(Ones, { n: 1e21 }), toolsmithAccepts(Ones, { n: 1e21 })]).toEqual([true, false]);
  });
});
