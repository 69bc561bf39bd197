import { Transform, Type } from 'class-transformer';
import { IsArray, IsDate, IsDivisibleBy, IsEnum, IsIn, IsInt, IsOptional, IsString, Min, Validate, ValidateIf, ValidateNested } from 'class-validator';
import { Describe } from '../decorators/describe.decorator';
import { UseClassValidator } from '../decorators/use-class-validator.decorator';
import { ToolDefinitionError } from '../errors/tool-definition-errors';
import { buildDtoSchema, isDtoClass } from './dto-schema';

enum Size {
  S = 's',
  M = 'm',
}

class LineDto {
  @Describe('Stock keeping unit') @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

@Describe('An order')
class OrderDto {
  @IsEnum(Size) size!: Size;
  @ValidateNested() @Type(() => LineDto) first!: LineDto;
  @IsArray() @ValidateNested({ each: true }) @Type(() => LineDto) lines!: LineDto[];
  @IsOptional() @IsString({ each: true }) @IsArray() notes?: string[];
  get total() {
    return this.lines.length;
  }
}

const site = { className: 'Tools', methodName: 'order', parameterIndex: 0 };
const failure = (dto: Function): ToolDefinitionError => {
  try {
    buildDtoSchema(dto, site);
  } catch (error) {
    return error as ToolDefinitionError;
  }
  throw new Error('expected a startup error');
};

describe('buildDtoSchema', () => {
  it('writes nested DTOs, arrays of DTOs, enums, optionals and descriptions into one schema', () => {
    const line = {
      type: 'object',
      properties: { sku: { description: 'Stock keeping unit', type: 'string' }, qty: { type: 'integer', minimum: 1 } },
      required: ['sku', 'qty'],
      additionalProperties: false,
    };
    const { description: _d, type: _t, ...lineWithoutType } = line as Record<string, unknown>;
    expect(buildDtoSchema(OrderDto, site)).toEqual({
      runClassValidator: false,
      schema: {
        type: 'object',
        description: 'An order',
        properties: {
          size: { type: 'string', enum: ['s', 'm'] },
          first: { type: 'object', ...lineWithoutType },
          lines: { type: 'array', items: line },
          notes: { type: ['array', 'null'], items: { type: 'string' } },
        },
        // Exactly class-validator: @ValidateNested alone lets undefined through (add @IsDefined() to require it).
        required: ['size', 'lines'],
        additionalProperties: false,
      },
    });
    expect(isDtoClass(OrderDto)).toBe(true);
    expect(isDtoClass(class Plain {})).toBe(false);
  });

  it('caches the schema per class (one object, so one compiled validator)', () => {
    expect(buildDtoSchema(OrderDto, site).schema).toBe(buildDtoSchema(OrderDto, site).schema);
  });

  it('fails for an undecorated-by-class-validator DTO', () => {
    class Empty {
      @Describe('only words') name!: string;
    }
    const error = failure(Empty);
    expect(error.code).toBe('INVALID_DTO');
    expect(error.message).toBe(
      'Tools.order, parameter #1, in Empty: the class has no class-validator decorators, so class-validator rejects every value of it. Fix: decorate each property (@IsString(), @IsInt(), @IsOptional(), …).',
    );
  });

  it('fails for @ValidateNested without @Type, and for a converting @Type', () => {
    class NoType {
      @ValidateNested() line!: LineDto;
    }
    expect(failure(NoType).message).toBe(
      'Tools.order, parameter #1, in NoType.line: @ValidateNested() has no @Type(() => NestedDto), so class-transformer leaves the value a plain object and class-validator rejects it. Fix: add @Type(() => NestedDto) from class-transformer next to @ValidateNested().',
    );
    class Converting {
      @ValidateNested() @Type(() => Number) n!: number;
    }
    expect(failure(Converting).message).toContain('@Type(() => Number) converts values instead of naming a nested DTO class');
  });

  it('fails for decorators JSON Schema cannot express, unless the DTO opts in to class-validator', () => {
    class WithDate {
      @IsDate() when!: Date;
    }
    const error = failure(WithDate);
    expect(error.code).toBe('UNSUPPORTED_DTO_DECORATOR');
    expect(error.message).toBe(
      'Tools.order, parameter #1, in WithDate.when: @IsDate cannot be expressed in JSON Schema (it is a custom or unlisted validator), so the model would not see the rule and ajv would not check it. Fix: add @UseClassValidator() to the DTO class so class-validator also runs after the schema check, or replace the decorator with one Toolsmith can express.',
    );
    class Conditional {
      @IsString() kind!: string;
      @ValidateIf((o: Conditional) => o.kind === 'x') @IsInt() size?: number;
    }
    expect(failure(Conditional).message).toContain('in Conditional.size: @ValidateIf cannot be expressed in JSON Schema (it depends on the other values of the object)');
    class Custom {
      @Validate(class {
        validate() {
          return true;
        }
      })
      value!: string;
    }
    expect(failure(Custom).code).toBe('UNSUPPORTED_DTO_DECORATOR');

    @UseClassValidator()
    class OptedIn {
      @IsString() kind!: string;
      @ValidateIf((o: OptedIn) => o.kind === 'x') @IsInt() size?: number;
    }
    expect(buildDtoSchema(OptedIn, site)).toEqual({
      runClassValidator: true,
      schema: { type: 'object', properties: { kind: { type: 'string' }, size: {} }, required: ['kind'], additionalProperties: false },
    });
  });

  it('fails for a converting @Type outside @ValidateNested, unless class-validator runs', () => {
    class Converts {
      @Type(() => Number) @IsInt() count!: number;
    }
    expect(failure(Converts).message).toBe(
      'Tools.order, parameter #1, in Converts.count: @Type(() => Number) cannot be expressed in JSON Schema (it converts the value after the JSON Schema check, so the schema would judge a different value than class-validator), so the model would not see the rule and ajv would not check it. Fix: add @UseClassValidator() to the DTO class so class-validator also runs after the schema check, or replace the decorator with one Toolsmith can express.',
    );
    @UseClassValidator()
    class WithDate {
      @Describe('ISO date') @Type(() => Date) @IsDate() when!: Date;
    }
    expect(buildDtoSchema(WithDate, site)).toEqual({
      runClassValidator: true,
      schema: { type: 'object', properties: { when: { description: 'ISO date' } }, additionalProperties: false },
    });
  });

  it('fails for { each: true } on a property that may not be an array', () => {
    class EachNoArray {
      @IsString({ each: true }) tags!: string[];
    }
    expect(failure(EachNoArray).message).toBe(
      'Tools.order, parameter #1, in EachNoArray.tags: IsString use { each: true } on a property that may not be an array, where class-validator applies them to the value itself. Fix: add @IsArray() to the property.',
    );
  });

  it('fails for contradictory rules', () => {
    class Contradictory {
      @IsString() @IsInt() value!: string;
    }
    expect(failure(Contradictory).message).toBe(
      'Tools.order, parameter #1, in Contradictory.value: the decorators @IsInt, @IsString contradict each other, so no value can ever be valid. Fix: remove the decorator that does not belong.',
    );
  });

  it('says what is wrong when one decorator alone lets no value pass (not "decorators contradict each other")', () => {
    class TenthDivisor {
      @IsDivisibleBy(0.1) value!: number;
    }
    expect(failure(TenthDivisor).message).toBe(
      "Tools.order, parameter #1, in TenthDivisor.value: @IsDivisibleBy(0.1) divides by parseInt(0.1), which is 0, so class-validator refuses every value (it divides by the divisor's whole part). Fix: divide by a whole number of at least 1.",
    );
    class TextMinimum {
      @Min('3' as never) value!: number;
    }
    expect(failure(TextMinimum).message).toBe('Tools.order, parameter #1, in TextMinimum.value: @Min("3") is given no number, so class-validator refuses every value. Fix: give @Min a number.');
  });

  it('lists null once in an optional @IsIn that already allows it', () => {
    class NullIn {
      @IsOptional() @IsIn([1, null]) value?: number | null;
    }
    expect(buildDtoSchema(NullIn, site).schema.properties).toEqual({ value: { enum: [1, null] } });
  });

  it('fails for a self-referencing DTO', () => {
    class Node {
      @IsString() name!: string;
      @IsOptional() @ValidateNested() @Type(() => Node) child?: Node;
    }
    expect(failure(Node).message).toContain('the DTO refers to itself (Node -> Node)');
  });

  it('ignores class-transformer decorators it does not need (documented: @Transform is not applied to the schema)', () => {
    class Transformed {
      @Transform(({ value }) => value) @IsString() s!: string;
    }
    expect(buildDtoSchema(Transformed, site).schema.properties).toEqual({ s: { type: 'string' } });
  });
});
