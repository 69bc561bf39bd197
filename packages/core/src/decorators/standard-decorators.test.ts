import { Container } from '../di/container';
import { Injectable } from '../di/injectable.decorator';
import { Toolset } from '../tools/toolset';
import { DependencyResolutionError } from '../errors/dependency-resolution-error';
import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { MissingTypeMetadataError } from '../errors/tool-definition-errors';
import { scanTools } from '../scanning/tool-scanner';
import { invokeTool } from '../testing/invoke-tool';
import { loadStandardDecorated } from './__fixtures__/load-standard-decorated';

// Each fixture is compiled here with TypeScript's standard decorators (no experimentalDecorators, no
// emitDecoratorMetadata): no parameter types exist at runtime, and no parameter decorators.
type Cls = new (...args: never[]) => unknown;

const CORE = `import { Tool, Toolset, Injectable, Param, Ctx, Inject, Describe, UseClassValidator } from '../../index';`;

const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

describe('standard (TC39) decorators', () => {
  it('polyfills Symbol.metadata, which TypeScript needs to give decorators context.metadata', () => {
    expect((Symbol as { metadata?: symbol }).metadata).toBe(Symbol.for('Symbol.metadata'));
  });

  it('scans @Toolset/@Tool classes and runs a tool, with the dependencies from the inject list', async () => {
    const { WeatherTools, WeatherApi } = loadStandardDecorated<{ WeatherTools: Cls; WeatherApi: Cls }>(`${CORE}
      @Injectable() export class WeatherApi { report(city: string) { return 'Sunny in ' + city; } }
      @Toolset({ prefix: 'weather_', inject: [WeatherApi] })
      export class WeatherTools {
        constructor(private readonly api: WeatherApi) {}
        @Tool({ description: 'The weather of a city.', inputSchema: ${JSON.stringify(weatherSchema)} })
        report(args: { city: string }) { return { report: this.api.report(args.city) }; }
        @Tool({ description: 'Nothing to ask.' }) ping() { return { pong: true }; }
        notATool() { return 1; }
      }`);
    expect(scanTools(WeatherTools).map((tool) => [tool.name, tool.description, tool.parameters])).toEqual([
      ['weather_report', 'The weather of a city.', weatherSchema],
      ['weather_ping', 'Nothing to ask.', { type: 'object', properties: {}, additionalProperties: false }],
    ]);
    const container = new Container();
    expect(container.resolve(WeatherTools)).toMatchObject({ api: expect.any(WeatherApi) });
    const result = await invokeTool(WeatherTools, 'weather_report', { city: 'Paris' });
    expect(result.response).toEqual({ report: 'Sunny in Paris' });
  });

  it('takes the arguments from a Standard Schema with @Tool({ input }) (zod), validated by it before the method runs', async () => {
    const { RefundTools } = loadStandardDecorated<{ RefundTools: Cls }>(`${CORE}
      import { z } from 'zod';
      @Toolset() export class RefundTools {
        @Tool({ description: 'Refunds an order.', input: z.object({ orderId: z.string(), amount: z.number().int().positive() }) })
        refund(args: { orderId: string; amount: number }) { return { refunded: args.amount, orderId: args.orderId }; }
      }`);
    const [refund] = scanTools(RefundTools, { manifest: null });
    expect(refund.parameters).toMatchObject({ type: 'object', properties: { orderId: { type: 'string' }, amount: { type: 'integer' } }, required: ['orderId', 'amount'] });
    expect((await invokeTool(RefundTools, 'refund', { orderId: 'A-1', amount: 5 })).response).toEqual({ refunded: 5, orderId: 'A-1' });
    const refused = await invokeTool(RefundTools, 'refund', { orderId: 'A-1', amount: -5 });
    expect(refused.error?.code).toBe('INVALID_ARGUMENTS');
  });

  it('keeps the tools of a base class and lets a subclass override one with its own @Tool', () => {
    const { Child } = loadStandardDecorated<{ Child: Cls }>(`${CORE}
      class Base {
        @Tool({ description: 'base a' }) a() { return 1; }
        @Tool({ description: 'base b' }) b() { return 2; }
      }
      @Toolset() export class Child extends Base {
        @Tool({ description: 'child b' }) override b() { return 3; }
        @Tool({ description: 'child c' }) c() { return 4; }
      }`);
    expect(scanTools(Child).map((tool) => `${tool.name}: ${tool.description}`).sort()).toEqual(['a: base a', 'b: child b', 'c: child c']);
  });

  it('refuses a method with parameters that no manifest describes: MISSING_TYPE_METADATA says what standard decorators need', () => {
    const { OrderTools } = loadStandardDecorated<{ OrderTools: Cls }>(`${CORE}
      @Toolset() export class OrderTools { @Tool() getOrder(orderId: string) { return { orderId }; } }`);
    const thrown = captured(() => scanTools(OrderTools, { manifest: null }));
    expect(thrown).toBeInstanceOf(MissingTypeMetadataError);
    expect(thrown.message).toBe(
      'OrderTools.getOrder: the method is compiled with standard decorators (no "experimentalDecorators"), which record no parameter ' +
        'types or names, and no build-time manifest describes it. Fix: take one object argument described by a Standard Schema ' +
        'with @Tool({ input }), or generate the manifest with `toolsmith schema` and let the scanner find it (next to the compiled ' +
        'code, TOOLSMITH_MANIFEST or useManifest(path); see docs/decorator-pitfalls.md), or give the schema explicitly with @Tool({ inputSchema }).',
    );
  });

  describe('dependency injection without parameter types', () => {
    it('a constructor dependency with no inject list is UNKNOWN_DEPENDENCY_TYPE naming the inject option', () => {
      const { OrderTools } = loadStandardDecorated<{ OrderTools: Cls }>(`${CORE}
        @Injectable() export class OrderRepository {}
        @Toolset() export class OrderTools { constructor(readonly orders: OrderRepository) {} @Tool() ping() { return {}; } }`);
      const thrown = captured(() => new Container().assertResolvable(OrderTools));
      expect(thrown).toBeInstanceOf(DependencyResolutionError);
      expect(thrown).toMatchObject({ code: 'UNKNOWN_DEPENDENCY_TYPE', chain: ['OrderTools'] });
      expect(thrown.message).toBe(
        'Cannot resolve OrderTools: it uses standard decorators (no "experimentalDecorators"), which record no constructor parameter ' +
          "types (dependency chain: OrderTools). Fix: list OrderTools's dependencies in constructor order: @Injectable({ inject: [...] }) " +
          '(a tools class: @Toolset({ inject: [...] })), or register OrderTools with a factory provider { provide: OrderTools, useFactory, inject: [...] }.',
      );
    });

    it('an @Injectable() service with a dependency and no list says the same, for the service', () => {
      const { OrderTools } = loadStandardDecorated<{ OrderTools: Cls }>(`${CORE}
        @Injectable() export class Database {}
        @Injectable() export class OrderRepository { constructor(readonly db: Database) {} }
        @Toolset({ inject: [OrderRepository] }) export class OrderTools { constructor(readonly orders: OrderRepository) {} @Tool() ping() { return {}; } }`);
      const thrown = captured(() => new Container().resolve(OrderTools));
      expect(thrown).toMatchObject({ code: 'UNKNOWN_DEPENDENCY_TYPE', chain: ['OrderTools', 'OrderRepository'] });
      expect(thrown.message).toMatch(/^Cannot resolve OrderRepository: it uses standard decorators/);
    });

    it('a list shorter than the constructor is refused, naming the parameter that is missing', () => {
      const { OrderTools } = loadStandardDecorated<{ OrderTools: Cls }>(`${CORE}
        @Injectable() export class A {}
        @Injectable() export class B {}
        @Toolset({ inject: [A] }) export class OrderTools { constructor(readonly a: A, readonly b: B) {} @Tool() ping() { return {}; } }`);
      const thrown = captured(() => new Container().assertResolvable(OrderTools));
      expect(thrown).toMatchObject({ code: 'UNKNOWN_DEPENDENCY_TYPE' });
      expect(thrown.message).toMatch(/^Cannot resolve OrderTools: constructor parameter #2 is not in its inject list/);
    });

    it('an entry that was undefined when the class was defined (an import cycle) is named as such', () => {
      const { OrderTools } = loadStandardDecorated<{ OrderTools: Cls }>(`${CORE}
        const Later = undefined as unknown as Function;
        @Toolset({ inject: [Later] }) export class OrderTools { constructor(readonly later: unknown) {} @Tool() ping() { return {}; } }`);
      const thrown = captured(() => new Container().assertResolvable(OrderTools));
      expect(thrown.message).toMatch(/^Cannot resolve OrderTools: the type of constructor parameter #1 was undefined when OrderTools was defined/);
    });

    it('takes string and symbol tokens from the list, with their providers', () => {
      const { OrderTools } = loadStandardDecorated<{ OrderTools: new (...args: unknown[]) => { url: string } }>(`${CORE}
        @Toolset({ inject: ['DB_URL'] }) export class OrderTools { constructor(readonly url: string) {} @Tool() ping() { return {}; } }`);
      expect(new Container([{ provide: 'DB_URL', useValue: 'postgres://db' }]).resolve(OrderTools)).toMatchObject({ url: 'postgres://db' });
    });

    it('an undecorated dependency has no provider: MISSING_PROVIDER, as with legacy decorators', () => {
      const { OrderTools } = loadStandardDecorated<{ OrderTools: Cls }>(`${CORE}
        export class Plain {}
        @Toolset({ inject: [Plain] }) export class OrderTools { constructor(readonly plain: Plain) {} @Tool() ping() { return {}; } }`);
      const thrown = captured(() => new Container().assertResolvable(OrderTools));
      expect(thrown).toMatchObject({ code: 'MISSING_PROVIDER', chain: ['OrderTools', 'Plain'] });
      expect(thrown.message).toMatch(/^Cannot resolve Plain: no provider is registered for it /);
    });
  });

  describe('decorators that exist only in legacy mode, or in the wrong place', () => {
    it.each([
      ['@Param', `class T { @Param('city') m() {} }`, /^@Param\("city"\) was called as a standard \(TC39\) decorator, but it works only with legacy decorators .*Fix: take one object argument described by a Standard Schema with @Tool\(\{ input \}\), or type the parameter in TypeScript and generate the build-time manifest with `toolsmith schema`/],
      ['@Ctx', `class T { @Ctx() m() {} }`, /^@Ctx\(\) was called as a standard .*Fix: type the parameter ToolContext/],
      ['@Inject', `class T { @Inject('KEY') m() {} }`, /^@Inject\(\) was called as a standard .*Fix: list the constructor's dependencies in order with @Toolset\(\{ inject: \[\.\.\.\] \}\)/],
      ['@Describe', `class T { @Describe('x') field = 1; }`, /^@Describe\(\) was called as a standard .*class-validator DTOs need legacy decorators/],
      ['@UseClassValidator', `@UseClassValidator() class T {}`, /^@UseClassValidator\(\) was called as a standard .*class-validator DTOs need legacy decorators/],
      ['@Tool on a field', `class T { @Tool() field = 1; }`, /^@Tool\(\) is on the field field; it belongs on a public instance method/],
      ['@Tool on a static method', `class T { @Tool() static m() {} }`, /^@Tool\(\) is on the static method m; it belongs on a public instance method/],
      ['@Tool on a #private method', `class T { @Tool() #m() {} }`, /^@Tool\(\) is on the private method #m; it belongs on a public instance method/],
    ])('%s throws INVALID_DECORATOR when the class is defined', (_name, source, message) => {
      const thrown = captured(() => loadStandardDecorated(`${CORE}\n${source}`));
      expect(thrown).toBeInstanceOf(InvalidDecoratorError);
      expect(thrown.message).toMatch(message);
    });
  });
});

describe('the inject list with legacy decorators (compiled by ts-jest, with emitDecoratorMetadata)', () => {
  it('is used too, and an entry wins over the emitted parameter type', () => {
    @Injectable()
    class Clock {}
    @Toolset({ inject: ['NOW'] })
    class Stamped {
      constructor(readonly now: string, readonly clock: Clock) {}
    }
    expect(Reflect.getMetadata('design:paramtypes', Stamped)).toEqual([String, Clock]);
    const built = new Container([{ provide: 'NOW', useValue: 'noon' }]).resolve(Stamped) as Stamped;
    expect(built.now).toBe('noon');
    expect(built.clock).toBeInstanceOf(Clock);
  });
});

function captured(run: () => unknown): Error & { code?: string } {
  try {
    run();
  } catch (thrown) {
    return thrown as Error;
  }
  throw new Error('expected a throw');
}

describe('standard (TC39) decorators with a Standard Schema', () => {
  it('takes a method’s arguments from @Tool({ input }) (a zod schema) and gives a later parameter the ToolContext', async () => {
    const { Orders } = loadStandardDecorated<{ Orders: Cls }>(`${CORE}
      import { z } from 'zod';
      @Toolset()
      export class Orders {
        @Tool({ description: 'Ships an order.', input: z.object({ orderId: z.string().min(3), express: z.boolean().default(false) }) })
        ship(args: { orderId: string; express: boolean }, ctx: { userId: string }) { return { ...args, by: ctx.userId }; }
      }`);
    expect(scanTools(Orders)[0].parameters).toEqual({
      type: 'object',
      properties: { orderId: { type: 'string', minLength: 3 }, express: { type: 'boolean', default: false } },
      required: ['orderId'],
    });
    expect((await invokeTool(Orders, 'ship', { orderId: 'A-1' }, { userId: 'ada' })).response).toEqual({ orderId: 'A-1', express: false, by: 'ada' });
    expect((await invokeTool(Orders, 'ship', { orderId: 'A' })).error?.message).toBe('Invalid arguments for tool "ship": orderId: Too small: expected string to have >=3 characters.');
  });
});
