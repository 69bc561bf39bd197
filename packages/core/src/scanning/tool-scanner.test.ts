import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Ctx } from '../decorators/ctx.decorator';
import { Describe } from '../decorators/describe.decorator';
import { Param } from '../decorators/param.decorator';
import { ToolDefinitionError } from '../errors/tool-definition-errors';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { invokeTool } from '../testing/invoke-tool';
import { scanTools } from './tool-scanner';
import { functionTool } from '../function-tool/function-tool';

enum Unit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
}

class RefundDto {
  @Describe('Amount in cents') @IsInt() @Min(1) amount!: number;
  @IsOptional() @IsString() reason?: string;
}

@Toolset({ prefix: 'weather_' })
class WeatherTools {
  @Tool({ description: 'Retrieves the current weather report for a city.' })
  getReport(
    @Param('city', { description: 'City name, e.g. Paris' }) city: string,
    @Param('unit', { enum: [Unit.Celsius, Unit.Fahrenheit], optional: true }) unit: Unit = Unit.Celsius,
    ctx: ToolContext,
  ) {
    return { city, unit, by: ctx.agentName };
  }

  @Tool({ requireConfirmation: true, name: 'refund' })
  refund(args: RefundDto, @Ctx() _ctx: unknown) {
    return args;
  }

  @Tool({ longRunning: true, outputSchema: { type: 'object' } })
  startExport(@Param('table') table: string, @Param('limit', { default: 10 }) limit: number, @Param('dry') dry: boolean) {
    return { table, limit, dry };
  }

  notATool() {
    return 1;
  }
}

describe('scanTools', () => {
  it('produces one canonical schema per @Tool method, with prefix, flags and names', () => {
    const tools = scanTools(WeatherTools);
    expect(tools.map((t) => t.name)).toEqual(['weather_getReport', 'weather_refund', 'weather_startExport']);
    const [report, refund, exportTool] = tools;
    expect(report).toMatchObject({
      description: 'Retrieves the current weather report for a city.',
      methodName: 'getReport',
      className: 'WeatherTools',
      isLongRunning: false,
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name, e.g. Paris' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        },
        required: ['city'],
        additionalProperties: false,
      },
    });
    expect(refund.requireConfirmation).toBe(true);
    expect(refund.parameters).toEqual({
      type: 'object',
      properties: {
        amount: { description: 'Amount in cents', type: 'integer', minimum: 1 },
        reason: { type: ['string', 'null'] },
      },
      required: ['amount'],
      additionalProperties: false,
    });
    expect(exportTool.isLongRunning).toBe(true);
    expect(exportTool.responseSchema).toEqual({ type: 'object' });
    expect(exportTool.parameters).toEqual({
      type: 'object',
      properties: { table: { type: 'string' }, limit: { type: 'number', default: 10 }, dry: { type: 'boolean' } },
      required: ['table', 'dry'],
      additionalProperties: false,
    });
  });

  it('accepts an instance and returns the same frozen definitions (scanned once)', () => {
    const fromInstance = scanTools(new WeatherTools());
    expect(fromInstance).toBe(scanTools(WeatherTools));
    expect(Object.isFrozen(fromInstance[0])).toBe(true);
    expect(Object.keys(fromInstance[0])).not.toContain('binder');
  });

  it('uses an explicit inputSchema and @Param schema over reflection', () => {
    class Explicit {
      @Tool({ inputSchema: { type: 'object', properties: { q: { type: 'string' } } } })
      search(args: Record<string, unknown>) {
        return args;
      }
      @Tool()
      tag(@Param('tags', { schema: { type: 'array', items: { type: 'string' } } }) tags: string[]) {
        return tags;
      }
    }
    const [search, tag] = scanTools(Explicit);
    expect(search.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(tag.parameters.properties).toEqual({ tags: { type: 'array', items: { type: 'string' } } });
  });

  it('finds tools declared on a base class; an override wins', () => {
    class Base {
      @Tool({ description: 'base' }) ping() {
        return 'base';
      }
      @Tool() other() {
        return 1;
      }
    }
    class Child extends Base {
      @Tool({ description: 'child' }) override ping() {
        return 'child';
      }
    }
    const tools = scanTools(Child);
    expect(tools.map((t) => [t.name, t.description])).toEqual([
      ['ping', 'child'],
      ['other', ''],
    ]);
  });

  it('keeps a base tool whose override is not decorated, and runs the override', async () => {
    class Base {
      @Tool({ description: 'greets' }) greet(@Param('name') name: string) {
        return `base ${name}`;
      }
    }
    class Child extends Base {
      override greet(name: string) {
        return `child ${name}`;
      }
    }
    expect(scanTools(Child).map((t) => [t.name, t.description, t.parameters.required])).toEqual([['greet', 'greets', ['name']]]);
    expect((await invokeTool(new Child(), 'greet', { name: 'x' })).response).toEqual({ result: 'child x' });
  });
});

describe('startup errors name class, method, parameter and fix', () => {
  const scanError = (cls: Function): ToolDefinitionError => {
    try {
      scanTools(cls);
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      return error as ToolDefinitionError;
    }
    throw new Error('expected a ToolDefinitionError');
  };

  it('rejects an invalid tool name', () => {
    class Bad {
      @Tool({ name: 'has space' }) go() {}
    }
    const error = scanError(Bad);
    expect(error.code).toBe('INVALID_TOOL_NAME');
    expect(error.message).toBe(
      'Bad.go: tool name "has space" is invalid; names must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, "_" and "-", at most 64 characters, prefix included). Fix: pass a valid name with @Tool({ name: \'...\' }) or shorten the @Toolset prefix.',
    );
  });

  it("rejects the names of the runner's pause requests, given or made by the prefix, and functionTool does too", () => {
    class Pretender {
      @Tool({ name: 'toolsmith_request_confirmation' }) go() {}
    }
    const error = scanError(Pretender);
    expect(error.code).toBe('INVALID_TOOL_NAME');
    expect(error.message).toBe(
      'Pretender.go: tool name "toolsmith_request_confirmation" is reserved for the runner\'s pause requests (toolsmith_request_confirmation, toolsmith_request_credential); ' +
        "a tool of that name would be taken for one. Fix: pass another name with @Tool({ name: '...' }) or change the @Toolset prefix.",
    );
    @Toolset({ prefix: 'toolsmith_request_' })
    class Prefixed {
      @Tool() credential() {}
    }
    expect(scanError(Prefixed).code).toBe('INVALID_TOOL_NAME');
    for (const name of ['toolsmith_request_confirmation', 'toolsmith_request_credential']) {
      expect(() => functionTool({ name, description: 'x', parameters: { type: 'object', properties: {} }, execute: () => ({}) })).toThrow(expect.objectContaining({ code: 'INVALID_TOOL_NAME', message: expect.stringContaining('is reserved') }));
    }
  });

  it('rejects a name made too long by the prefix', () => {
    @Toolset({ prefix: 'p'.repeat(60) })
    class Long {
      @Tool() search() {}
    }
    expect(scanError(Long).code).toBe('INVALID_TOOL_NAME');
  });

  it('rejects duplicate names', () => {
    class Dup {
      @Tool({ name: 'x' }) a() {}
      @Tool({ name: 'x' }) b() {}
    }
    const error = scanError(Dup);
    expect(error.code).toBe('DUPLICATE_TOOL_NAME');
    expect(error.message).toBe(
      'Dup.b: tool name "x" is already used by Dup.a. Fix: give one of them another name with @Tool({ name: \'...\' }).',
    );
  });

  it('rejects an Object-typed (interface/union/any) parameter', () => {
    class Unknown {
      @Tool() go(@Param('value') value: string | number) {
        return value;
      }
    }
    const error = scanError(Unknown);
    expect(error.code).toBe('UNKNOWN_PARAMETER_TYPE');
    expect(error.message).toContain('Unknown.go, parameter #1 "value": the parameter type cannot be known at runtime (TypeScript reports "Object"');
    expect(error.message).toContain('Fix: give the schema with @Param(name, { schema: {...} })');
    expect(error.site).toEqual({ className: 'Unknown', methodName: 'go', parameterIndex: 0, parameterName: 'value' });
  });

  it('rejects an array without item type', () => {
    class Arr {
      @Tool() go(@Param('items') items: string[]) {
        return items;
      }
    }
    const error = scanError(Arr);
    expect(error.code).toBe('UNKNOWN_PARAMETER_TYPE');
    expect(error.message).toContain('TypeScript reports "Array"');
  });

  it('rejects missing design:paramtypes (metadata not emitted)', () => {
    class NoMeta {
      go(city: string) {
        return city;
      }
    }
    // What a compiler without emitDecoratorMetadata leaves: the @Tool marker only.
    Tool()(NoMeta.prototype, 'go', Object.getOwnPropertyDescriptor(NoMeta.prototype, 'go')!);
    const error = scanError(NoMeta);
    expect(error.code).toBe('MISSING_TYPE_METADATA');
    expect(error.message).toContain('NoMeta.go: TypeScript emitted no parameter types (design:paramtypes is missing). Fix: enable "emitDecoratorMetadata"');
  });

  it('says that a ToolContext imported with `import type` is emitted as Function (or Object), as the constructor case does', () => {
    for (const emitted of [Function, Object]) {
      class TypeOnlyContext {
        go(ctx: unknown) {
          return ctx;
        }
      }
      // What tsc emits for `import { type ToolContext }` (Function), or a compiler of one file at a time (Object).
      Tool()(TypeOnlyContext.prototype, 'go', Object.getOwnPropertyDescriptor(TypeOnlyContext.prototype, 'go')!);
      Reflect.defineMetadata('design:paramtypes', [emitted], TypeOnlyContext.prototype, 'go');
      const error = scanError(TypeOnlyContext);
      expect(error.code).toBe('UNDECORATED_PARAMETER');
      expect(error.message).toContain(
        `A ToolContext parameter whose class was imported with \`import type\` (or \`import { type ToolContext }\`) is emitted as ${emitted.name}: import it as a value (\`import { ToolContext }\`), or mark it with @Ctx().`,
      );
    }
  });

  it('rejects an undecorated primitive parameter', () => {
    class Undecorated {
      @Tool() go(city: string) {
        return city;
      }
    }
    const error = scanError(Undecorated);
    expect(error.code).toBe('UNDECORATED_PARAMETER');
    expect(error.message).toBe(
      'Undecorated.go, parameter #1: the String parameter has no @Param decorator, and parameter names are not available at runtime. Fix: add @Param(\'name\') to it, mark a ToolContext parameter with @Ctx(), or take a single class-validator DTO parameter instead. ' +
        'If this class is described by a build-time manifest (toolsmith schema), the manifest was not loaded or has no entry for this method: ' +
        'call useManifest(path) before the class is scanned, set TOOLSMITH_MANIFEST, or run `toolsmith schema` again.',
    );
  });

  it('rejects mixing @Param and a DTO, and duplicate @Param names', () => {
    class Mixed {
      @Tool() go(@Param('a') a: string, dto: RefundDto) {
        return [a, dto];
      }
    }
    expect(scanError(Mixed).message).toBe(
      'Mixed.go, parameter #2: a tool takes either @Param parameters or one DTO parameter, not both. Fix: move the @Param values into the DTO class, or replace the DTO with @Param parameters.',
    );
    class Twice {
      @Tool() go(@Param('a') a: string, @Param('a') b: string) {
        return [a, b];
      }
    }
    expect(scanError(Twice).message).toBe('Twice.go, parameter #2 "a": two parameters are named "a". Fix: give each @Param a distinct name.');
  });

  it('rejects an explicit schema that is not an object schema or not valid JSON Schema', () => {
    class NotObject {
      @Tool({ inputSchema: { type: 'string' } }) go() {}
    }
    expect(scanError(NotObject).message).toBe(
      'NotObject.go: the explicit schema is not usable: its type is "string", not "object". Fix: give a JSON Schema object with type "object" (for a whole tool) or any valid JSON Schema (for one @Param).',
    );
    class Invalid {
      @Tool() go(@Param('n', { schema: { type: 'nope' } }) n: number) {
        return n;
      }
    }
    const error = scanError(Invalid);
    expect(error.code).toBe('INVALID_INPUT_SCHEMA');
    expect(error.message).toContain('Invalid.go, parameter #1 "n": the explicit schema is not usable: schema/type must be equal to one of the allowed values');
  });

  it('rejects at startup what ajv could not compile at the first call: a bad pattern, a dangling $ref', () => {
    class BadPattern {
      @Tool({ inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(' } } } }) go() {}
    }
    expect(scanError(BadPattern)).toMatchObject({ code: 'INVALID_INPUT_SCHEMA', message: expect.stringContaining('schema/properties/a/pattern "(" is not a regular expression') });
    class Dangling {
      @Tool() go(@Param('a', { schema: { $ref: '#/$defs/Nope' } }) a: string) {
        return a;
      }
    }
    expect(scanError(Dangling)).toMatchObject({ code: 'INVALID_INPUT_SCHEMA', message: expect.stringContaining('schema/$ref "#/$defs/Nope" points to nothing in the schema') });
  });

  it('rejects at startup a $ref to another document, a keyword or a format ajv would not check, naming the tool and the path (h42d)', () => {
    class External {
      @Tool() go(@Param('a', { schema: { $ref: 'https://example.com/address.json' } }) a: string) {
        return a;
      }
    }
    expect(scanError(External)).toMatchObject({
      code: 'INVALID_INPUT_SCHEMA',
      message: expect.stringContaining('External.go, parameter #1 "a": the explicit schema is not usable: schema/$ref "https://example.com/address.json" is not in the schema'),
    });
    class Misspelled {
      @Tool({ inputSchema: { type: 'object', properties: { name: { type: 'string', minLenght: 1 } }, requried: ['name'] } }) go() {}
    }
    expect(scanError(Misspelled)).toMatchObject({
      code: 'INVALID_INPUT_SCHEMA',
      message: expect.stringMatching(/^Misspelled\.go: .*schema\/properties\/name\/minLenght is not a JSON Schema keyword .*\(did you mean "minLength"\?\).*schema\/requried .*\(did you mean "required"\?\)/),
    });
    class UnknownFormat {
      @Tool() go(@Param('phone', { schema: { type: 'string', format: 'phone' } }) phone: string) {
        return phone;
      }
    }
    expect(scanError(UnknownFormat)).toMatchObject({ code: 'INVALID_INPUT_SCHEMA', message: expect.stringContaining('schema/format "phone" is not a format ajv checks') });
  });
});

describe('scanning without decorator metadata (esbuild, tsx, vitest)', () => {
  it('scans a method whose parameters all say what they are (@Param schema or enum, @Ctx), and runs it', async () => {
    @Toolset()
    class NoMetadata {
      @Tool({ description: 'Converts.' })
      convert(
        @Param('amount', { schema: { type: 'number', minimum: 0 } }) amount: number,
        @Param('unit', { enum: ['eur', 'usd'] }) unit: string,
        @Ctx() ctx: { userId: string },
      ) {
        return { amount, unit, user: ctx.userId };
      }
    }
    Reflect.deleteMetadata('design:paramtypes', NoMetadata.prototype, 'convert');
    const [tool] = scanTools(NoMetadata);
    expect(tool.parameters).toMatchObject({ properties: { amount: { type: 'number', minimum: 0 }, unit: { enum: ['eur', 'usd'] } }, required: ['amount', 'unit'] });
    expect((await invokeTool(NoMetadata, 'convert', { amount: 3, unit: 'eur' })).response).toEqual({ amount: 3, unit: 'eur', user: 'test-user' });
  });

  it('still refuses, with MISSING_TYPE_METADATA, a parameter that needs its type', () => {
    @Toolset()
    class Untyped {
      @Tool()
      greet(@Param('name') name: string) {
        return { name };
      }
    }
    Reflect.deleteMetadata('design:paramtypes', Untyped.prototype, 'greet');
    expect(() => scanTools(Untyped)).toThrow(expect.objectContaining({ code: 'MISSING_TYPE_METADATA' }));
  });
});
