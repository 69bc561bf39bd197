import { IsString, MinLength } from 'class-validator';
import { Param } from '../decorators/param.decorator';
import { UndecoratedParameterError } from '../errors/tool-definition-errors';
import { ToolContext } from '../tools/tool-context';
import { Tool } from '../tools/tool';
import { Toolset } from '../tools/toolset';
import { ManifestDocument, ManifestMethod } from './manifest-document';
import { ToolManifest } from './manifest';
import { scanTools } from './tool-scanner';

class RefundDto {
  @IsString()
  @MinLength(3)
  orderId!: string;
}

@Toolset()
class ShopTools {
  @Tool()
  search(@Param('query', { description: 'From @Param' }) query: string, limit?: number) {
    return { query, limit };
  }

  @Tool()
  tag(@Param('tags', { schema: { type: 'array', items: { type: 'string' }, maxItems: 3 } }) tags: string[], ctx: ToolContext) {
    return { tags, user: ctx.userId };
  }

  @Tool({ inputSchema: { type: 'object', properties: { raw: { type: 'string' } } } })
  raw(args: { raw: string }) {
    return args;
  }

  @Tool()
  refund(args: RefundDto) {
    return { id: args.orderId };
  }

  @Tool({ description: 'Explicit description' })
  described(@Param('x') x: string) {
    return { x };
  }
}

const method = (overrides: Partial<ManifestMethod>): ManifestMethod => ({ parameters: [], ...overrides });

function manifestOf(methods: Record<string, ManifestMethod>): ToolManifest {
  const document: ManifestDocument = {
    version: 1,
    generator: 'test',
    toolsets: { ShopTools: { source: 'not-deployed.ts', sourceHash: `sha256:${'0'.repeat(64)}`, methods } },
  };
  return new ToolManifest(document, '/nowhere/toolsmith.schema.json');
}

describe('scanning with a manifest', () => {
  const manifest = manifestOf({
    search: method({
      description: 'Searches the shop.',
      parameters: [
        { name: 'query', index: 0, schema: { type: 'string', description: 'From JSDoc' }, optional: false },
        { name: 'limit', index: 1, schema: { type: 'integer', enum: [10, 50] }, optional: true },
      ],
      outputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    }),
    tag: method({
      parameters: [{ name: 'tags', index: 0, schema: { type: 'array', items: { type: 'string' } }, optional: false }],
      contextIndex: 1,
    }),
    raw: method({ description: 'Raw from JSDoc.', parameters: [{ name: 'args', index: 0, schema: { type: 'object' }, optional: false }] }),
    refund: method({ parameters: [{ name: 'args', index: 0, schema: { type: 'object' }, optional: false }] }),
    described: method({ description: 'JSDoc description', parameters: [{ name: 'x', index: 0, schema: { type: 'string' }, optional: false }] }),
  });
  const byMethod = (name: string) => scanTools(ShopTools, { manifest }).find((tool) => tool.methodName === name)!;

  it('takes schemas the reflection cannot see from the manifest, with @Param options laid over them', () => {
    const search = byMethod('search');
    expect(search.description).toBe('Searches the shop.');
    expect(search.parameters).toEqual({
      type: 'object',
      properties: { query: { type: 'string', description: 'From @Param' }, limit: { type: 'integer', enum: [10, 50] } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(search.responseSchema).toEqual({ type: 'object', properties: { query: { type: 'string' } } });
  });

  it('keeps an explicit @Param schema over the manifest', () => {
    expect(byMethod('tag').parameters.properties).toEqual({ tags: { type: 'array', items: { type: 'string' }, maxItems: 3 } });
  });

  it('keeps an explicit inputSchema, but still takes the JSDoc description', () => {
    const raw = byMethod('raw');
    expect(raw.parameters).toEqual({ type: 'object', properties: { raw: { type: 'string' } } });
    expect(raw.description).toBe('Raw from JSDoc.');
  });

  it('keeps a class-validator DTO on reflection', () => {
    expect(byMethod('refund').parameters).toMatchObject({ type: 'object', properties: { orderId: { type: 'string', minLength: 3 } } });
  });

  it('keeps an explicit @Tool description over the JSDoc summary', () => {
    expect(byMethod('described').description).toBe('Explicit description');
  });

  it('needs @Param on every parameter without the manifest (manifest: null)', () => {
    expect(() => scanTools(ShopTools, { manifest: null })).toThrow(UndecoratedParameterError);
    expect(() => scanTools(ShopTools, { manifest: null })).toThrow(/ShopTools\.search, parameter #2/);
  });
});

describe('a method without decorator metadata that the manifest does not describe (emitDecoratorMetadata off)', () => {
  /** A DTO tool as tsc compiles it without emitDecoratorMetadata: the @Tool marker, no design:paramtypes. */
  function untypedDtoTools() {
    @Toolset()
    class TaskTools {
      @Tool()
      createTask(args: RefundDto) {
        return args;
      }
    }
    Reflect.deleteMetadata('design:paramtypes', TaskTools.prototype, 'createTask');
    return TaskTools;
  }
  const manifestWith = (toolsets: ManifestDocument['toolsets']) =>
    new ToolManifest({ version: 1, generator: 'test', toolsets }, '/app/toolsmith.schema.json', { onStale: 'warn', onMissingMethod: 'warn', warn: () => undefined });
  const entry = (methods: Record<string, ManifestMethod>) => ({ source: 'not-deployed.ts', sourceHash: `sha256:${'0'.repeat(64)}`, methods });

  it("a DTO parameter, which the manifest's entry leaves out, is MISSING_TYPE_METADATA naming the manifest, not UNDECORATED_PARAMETER", () => {
    // What `toolsmith schema` writes for a DTO tool: an entry for the method without parameters.
    const manifest = manifestWith({ TaskTools: entry({ createTask: method({ description: 'Creates a task.' }) }) });
    expect(() => scanTools(untypedDtoTools(), { manifest })).toThrow(
      expect.objectContaining({
        code: 'MISSING_TYPE_METADATA',
        message:
          'TaskTools.createTask, parameter #1: TypeScript emitted no parameter types (design:paramtypes is missing), and the manifest ' +
          '/app/toolsmith.schema.json describes TaskTools.createTask but not this ' +
          "parameter (the manifest stores no schema for a class-validator DTO parameter: the DTO's rules are read from its class at startup, " +
          'which needs the parameter\'s type). Fix: enable "emitDecoratorMetadata" and "experimentalDecorators" in tsconfig.json and compile with tsc ' +
          'or ts-jest (esbuild, tsx and vitest drop decorator metadata); or take @Param parameters instead of the DTO and run `toolsmith schema` again; ' +
          'or give the schema explicitly with @Tool({ inputSchema }).',
      }),
    );
  });

  it('says whether the manifest has no entry for the class or none for the method', () => {
    expect(() => scanTools(untypedDtoTools(), { manifest: manifestWith({}) })).toThrow(
      expect.objectContaining({ code: 'MISSING_TYPE_METADATA', message: expect.stringContaining(', and the manifest /app/toolsmith.schema.json has no entry for class TaskTools. Fix:') }),
    );
    const otherMethod = manifestWith({ TaskTools: entry({ listTasks: method({}) }) });
    expect(() => scanTools(untypedDtoTools(), { manifest: otherMethod })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('the manifest /app/toolsmith.schema.json has an entry for class TaskTools, but none for its method createTask.') }),
    );
    expect(() => scanTools(untypedDtoTools(), { manifest: null })).toThrow(
      expect.objectContaining({ code: 'MISSING_TYPE_METADATA', message: expect.not.stringContaining('manifest /') }),
    );
  });
});

describe('output schemas from the manifest are enforced at the call', () => {
  it('a result that breaks the return type the manifest recorded fails with TOOL_OUTPUT_INVALID', async () => {
    const { createClassTools } = jest.requireActual<typeof import('./class-tools')>('./class-tools');
    const { Container } = jest.requireActual<typeof import('../di/container')>('../di/container');
    const { invokeTool } = jest.requireActual<typeof import('../testing/invoke-tool')>('../testing/invoke-tool');
    const manifest = manifestOf({
      search: method({
        parameters: [
          { name: 'query', index: 0, schema: { type: 'string' }, optional: false },
          { name: 'limit', index: 1, schema: { type: 'integer' }, optional: true },
        ],
        // As if the method were declared to return { query: number }: the result's string breaks it.
        outputSchema: { type: 'object', properties: { query: { type: 'number' } }, required: ['query'] },
      }),
      described: method({ parameters: [{ name: 'x', index: 0, schema: { type: 'string' }, optional: false }], outputSchema: { type: 'object', properties: { x: { type: 'string' } } } }),
      tag: method({ parameters: [{ name: 'tags', index: 0, schema: { type: 'array', items: { type: 'string' } }, optional: false }], contextIndex: 1 }),
      raw: method({ parameters: [{ name: 'args', index: 0, schema: { type: 'object' }, optional: false }] }),
      refund: method({ parameters: [{ name: 'args', index: 0, schema: { type: 'object' }, optional: false }] }),
    });
    const tools = createClassTools(ShopTools, { container: new Container(), manifest }).filter((tool) => tool.name === 'search' || tool.name === 'described');
    const broken = await invokeTool(tools, 'search', { query: 'tea' });
    expect(broken.error).toMatchObject({ code: 'TOOL_OUTPUT_INVALID', problems: [{ path: '/query', keyword: 'type' }] });
    expect((await invokeTool(tools, 'described', { x: 'ok' })).response).toEqual({ x: 'ok' });
  });
});

describe('a class sharing a manifest class name', () => {
  const entry: ManifestMethod = {
    parameters: [
      { name: 'status', index: 0, schema: { enum: ['open', 'shipped'], type: 'string' }, optional: false },
      { name: 'note', index: 1, schema: { type: 'string' }, optional: true },
    ],
    length: 2,
    parameterCount: 2,
  };
  const manifestWith = (options: ConstructorParameters<typeof ToolManifest>[2]) =>
    new ToolManifest(
      { version: 1, generator: 'test', toolsets: { MTools: { source: 'not-deployed.ts', sourceHash: `sha256:${'0'.repeat(64)}`, methods: { setStatus: entry } } } },
      '/nowhere/toolsmith.schema.json',
      options,
    );
  // The app's class, as the manifest describes it.
  const App = (() => {
    @Toolset()
    class MTools {
      @Tool()
      setStatus(status: string, note?: string) {
        return { status, note };
      }
    }
    return MTools;
  })();
  // A library's toolset of the same name: one number parameter.
  const Library = (() => {
    @Toolset({ prefix: 'lib_' })
    class MTools {
      @Tool()
      setStatus(@Param('maxAgeDays') maxAgeDays: number) {
        return { maxAgeDays };
      }
    }
    return MTools;
  })();

  it('uses the entry for the class it describes', () => {
    const [tool] = scanTools(App, { manifest: manifestWith({}) });
    expect(tool.parameters.properties).toEqual({ status: { enum: ['open', 'shipped'], type: 'string' }, note: { type: 'string' } });
  });

  it('does not give another class the entry: reflection, reported by the stale policy', () => {
    const warn = jest.fn();
    const [tool] = scanTools(Library, { manifest: manifestWith({ warn }) });
    expect(tool.parameters).toEqual({ type: 'object', properties: { maxAgeDays: { type: 'number' } }, required: ['maxAgeDays'], additionalProperties: false });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/class MTools scanned is not the one the manifest describes.*setStatus has 1 parameters.*Rename one of the two classes/);
    expect(() => scanTools(Library, { manifest: manifestWith({ onStale: 'error' }) })).toThrow(expect.objectContaining({ code: 'MANIFEST_STALE' }));
  });

  it('tells them apart by @Tool methods, Function.length, parameter count and @Param names', () => {
    const mismatchOf = (cls: Function) => {
      const warn = jest.fn();
      scanTools(cls, { manifest: manifestWith({ warn }) });
      return String(warn.mock.calls[0]?.[0] ?? '');
    };
    @Toolset()
    class NoSuchTool {
      @Tool()
      other(@Param('status') status: string, @Param('note') note: string) {
        return { status, note };
      }
    }
    Object.defineProperty(NoSuchTool, 'name', { value: 'MTools' });
    expect(mismatchOf(NoSuchTool)).toMatch(/it has no @Tool method setStatus/);
    @Toolset()
    class Defaulted {
      @Tool()
      setStatus(@Param('status') status: string, @Param('note') note: string = '') {
        return { status, note };
      }
    }
    Object.defineProperty(Defaulted, 'name', { value: 'MTools' });
    expect(mismatchOf(Defaulted)).toMatch(/setStatus has 1 parameters before the first one with a default \(Function\.length\), the manifest 2/);
    @Toolset()
    class Renamed {
      @Tool()
      setStatus(@Param('state') status: string, @Param('note') note: string) {
        return { status, note };
      }
    }
    Object.defineProperty(Renamed, 'name', { value: 'MTools' });
    expect(mismatchOf(Renamed)).toMatch(/parameter 1 is @Param\('state'\), the manifest's is status/);
    @Toolset()
    class Longer {
      @Tool()
      setStatus(@Param('status') status: string, @Param('note') note: string, @Param('more') more: number = 1) {
        return { status, note, more };
      }
    }
    Object.defineProperty(Longer, 'name', { value: 'MTools' });
    expect(mismatchOf(Longer)).toMatch(/setStatus has 3 parameters, the manifest 2/);
  });

  it('tells them apart by reflected parameter types when the method, arity and @Param names are the same', () => {
    const scanned = (cls: Function) => {
      const warn = jest.fn();
      const [tool] = scanTools(cls, { manifest: manifestWith({ warn }) });
      return { parameters: tool.parameters, warning: String(warn.mock.calls[0]?.[0] ?? '') };
    };
    // The library's method takes a number where the app's takes 'open' | 'shipped'.
    @Toolset({ prefix: 'lib_' })
    class NumberStatus {
      @Tool()
      setStatus(@Param('status') status: number, @Param('note') note?: string) {
        return { status, note };
      }
    }
    Object.defineProperty(NumberStatus, 'name', { value: 'MTools' });
    const numbers = scanned(NumberStatus);
    expect(numbers.warning).toMatch(/class MTools scanned is not the one the manifest describes under that name \(setStatus's parameter 1 \(status\) is declared Number, the manifest's schema takes string\)/);
    expect(numbers.parameters.properties).toEqual({ status: { type: 'number' }, note: { type: 'string' } });
    expect(() => scanTools(NumberStatus, { manifest: manifestWith({ onStale: 'error' }) })).toThrow(expect.objectContaining({ code: 'MANIFEST_STALE' }));

    class Note {
      text!: string;
    }
    @Toolset({ prefix: 'lib_' })
    class ClassNote {
      @Tool()
      setStatus(@Param('status') status: string, @Param('note') note?: Note) {
        return { status, note };
      }
    }
    Object.defineProperty(ClassNote, 'name', { value: 'MTools' });
    expect(() => scanTools(ClassNote, { manifest: manifestWith({ onStale: 'error' }) })).toThrow(
      expect.objectContaining({ code: 'MANIFEST_STALE', message: expect.stringContaining("setStatus's parameter 2 (note) is declared Note, the manifest's schema takes string") }),
    );

    // What the metadata cannot tell (Object for a union, a built-in class) is not compared; a string
    // literal, a nullable string and an enum of strings are String.
    const nullable: ManifestMethod = { ...entry, parameters: [{ ...entry.parameters[0], schema: { anyOf: [{ $ref: '#/$defs/S' }, { type: 'null' }] } }, { ...entry.parameters[1], schema: { type: 'object' } }], $defs: { S: { enum: ['open', 'shipped'] } } };
    @Toolset()
    class Unions {
      @Tool()
      setStatus(@Param('status') status: 'open' | 'shipped' | null, @Param('note') note?: Date | number) {
        return { status, note };
      }
    }
    Object.defineProperty(Unions, 'name', { value: 'MTools' });
    const unionsManifest = new ToolManifest(
      { version: 1, generator: 'test', toolsets: { MTools: { source: 'not-deployed.ts', sourceHash: `sha256:${'0'.repeat(64)}`, methods: { setStatus: nullable } } } },
      '/nowhere/toolsmith.schema.json',
      { onStale: 'error' },
    );
    expect(scanTools(Unions, { manifest: unionsManifest })[0].parameters.properties).toEqual({ status: nullable.parameters[0].schema, note: { type: 'object' } });
  });
});
