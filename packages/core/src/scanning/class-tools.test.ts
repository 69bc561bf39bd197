import { Type } from 'class-transformer';
import { IsArray, IsEmail, IsInt, IsOptional, IsString, Min, MinLength, ValidateNested } from 'class-validator';
import { Ctx } from '../decorators/ctx.decorator';
import { Param } from '../decorators/param.decorator';
import { Container } from '../di/container';
import { ContainerAdapter, ResolutionScope } from '../di/container-adapter';
import { invokeTool } from '../testing/invoke-tool';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { createClassTools } from './class-tools';

class LineDto {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
  label() {
    return `${this.qty}x${this.sku}`;
  }
}

class OrderDto {
  @IsString() customer!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => LineDto) lines!: LineDto[];
  @IsOptional() @IsString() note?: string;
  get count() {
    return this.lines.reduce((n, l) => n + l.qty, 0);
  }
}

class SignupDto {
  @IsEmail() email!: string;
  @MinLength(8) password!: string;
}

class Inventory {
  constructor(private readonly stock: Record<string, number>) {}
  available(sku: string) {
    return this.stock[sku] ?? 0;
  }
}

let built = 0;

@Toolset({ prefix: 'shop_' })
class ShopTools {
  constructor(private readonly inventory: Inventory) {
    built++;
  }

  @Tool({ description: 'Stock of one item.' })
  stock(@Param('sku') sku: string, @Param('warehouse', { optional: true }) warehouse: string = 'main', ctx: ToolContext) {
    ctx.state.set('user:lastSku', sku);
    return { sku, warehouse, available: this.inventory.available(sku), agent: ctx.agentName };
  }

  @Tool()
  order(order: OrderDto, @Ctx() ctx: ToolContext) {
    return { isOrder: order instanceof OrderDto, count: order.count, labels: order.lines.map((l) => l.label()), call: ctx.functionCallId };
  }

  @Tool()
  signup(dto: SignupDto) {
    return { email: dto.email };
  }

  @Tool({ requireConfirmation: true })
  invite(dto: SignupDto) {
    return { invited: dto.email };
  }

  @Tool()
  add(@Param('a') a: number, @Param('b', { default: 10 }) b: number) {
    return a + b;
  }

  @Tool()
  fail(@Param('why') why: string): string {
    throw new Error(why);
  }

  @Tool({ requireConfirmation: (args: { amount: number }) => args.amount > 100 })
  refund(@Param('amount') amount: number) {
    return { refunded: amount };
  }

  @Tool()
  echo(@Param('value', { schema: { type: 'object' } }) value: Record<string, unknown>) {
    return { proto: Object.getPrototypeOf(value) === Object.prototype, keys: Object.keys(value) };
  }
}

const providers = [{ provide: Inventory, useValue: new Inventory({ A1: 3 }) }];

describe('class tools run through the executor (invokeTool)', () => {
  it('binds @Param values in order, applies defaults, injects the context, and records state', async () => {
    const out = await invokeTool(ShopTools, 'shop_stock', '{"sku":"A1"}', { providers, agentName: 'clerk' });
    expect(out).toMatchObject({
      isError: false,
      response: { sku: 'A1', warehouse: 'main', available: 3, agent: 'clerk' },
      stateDelta: { 'user:lastSku': 'A1' },
    });
    expect((await invokeTool(ShopTools, 'shop_add', { a: 1 }, { providers })).response).toEqual({ result: 11 });
    expect((await invokeTool(ShopTools, 'shop_add', { a: 1, b: 2 }, { providers })).response).toEqual({ result: 3 });
  });

  it('hands a DTO over as a class instance, nested DTOs included, so getters and methods work', async () => {
    const out = await invokeTool(ShopTools, 'shop_order', { customer: 'c', lines: [{ sku: 'A', qty: 2 }, { sku: 'B', qty: 1 }] }, { providers });
    expect(out.response).toEqual({ isOrder: true, count: 3, labels: ['2xA', '1xB'], call: 'call-1' });
  });

  it('turns ajv errors into one readable sentence per problem', async () => {
    const out = await invokeTool(ShopTools, 'shop_order', JSON.stringify({ customer: 1, lines: [{ sku: 'A', qty: 0 }], extra: true }), { providers });
    expect(out.isError).toBe(true);
    expect(out.error?.code).toBe('INVALID_ARGUMENTS');
    expect(out.response).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
    expect(out.error?.message).toBe(
      'Invalid arguments for tool "shop_order": extra: unknown property, expected it left out; customer: got 1, expected string; lines[0].qty: got 0, expected >= 1.',
    );
  });

  it('runs class-validator after ajv where the schema cannot say everything, with the same kind of error', async () => {
    const ok = await invokeTool(ShopTools, 'shop_signup', { email: 'a@example.com', password: '12345678' }, { providers });
    expect(ok.response).toEqual({ email: 'a@example.com' });
    const bad = await invokeTool(ShopTools, 'shop_signup', { email: 'nope', password: '12345678' }, { providers });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.error?.message).toBe('Invalid arguments for tool "shop_signup": email: got "nope", expected an email.');
  });

  it('reports malformed JSON, unknown tools and thrown errors as typed error responses', async () => {
    const malformed = await invokeTool(ShopTools, 'shop_add', '{"a":', { providers });
    expect(malformed.error?.code).toBe('MALFORMED_ARGUMENTS');
    // A name no method has does not compile: the class typed as Function calls it anyway.
    const unknown = await invokeTool(ShopTools as Function, 'shop_nope', {}, { providers });
    expect(unknown.error?.code).toBe('TOOL_NOT_FOUND');
    expect(unknown.error?.message).toContain('shop_stock, shop_order, shop_signup, shop_invite, shop_add, shop_fail, shop_refund, shop_echo');
    const thrown = await invokeTool(ShopTools, 'shop_fail', { why: 'db down' }, { providers });
    expect(thrown.response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'The tool failed: db down' } });
    expect((thrown.error?.cause as Error).message).toBe('db down');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('never lets the key %s reach a prototype', async (key) => {
    const out = await invokeTool(ShopTools, 'shop_echo', `{"value":{"${key}":{"polluted":true}}}`, { providers });
    expect(out.error?.code).toBe('MALFORMED_ARGUMENTS');
    const dto = await invokeTool(ShopTools, 'shop_order', `{"customer":"c","lines":[],"${key}":{"polluted":true}}`, { providers });
    expect(dto.error?.code).toBe('MALFORMED_ARGUMENTS');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('applies configurable size and depth limits with a clear error', async () => {
    const large = await invokeTool(ShopTools, 'shop_stock', JSON.stringify({ sku: 'x'.repeat(100) }), { providers, limits: { maxChars: 50, maxDepth: 64 } });
    expect(large.error?.message).toBe('Arguments for tool "shop_stock" are larger than 50 characters.');
    const deep = await invokeTool(ShopTools, 'shop_echo', { value: { a: { b: { c: {} } } } }, { providers, limits: { maxChars: 1000, maxDepth: 3 } });
    expect(deep.error?.message).toBe('Arguments for tool "shop_echo" are nested deeper than 3 levels.');
    const deepText = await invokeTool(ShopTools, 'shop_echo', '{"value":{"a":{"b":{"c":{}}}}}', { providers, limits: { maxChars: 1000, maxDepth: 3 } });
    expect(deepText.error?.code).toBe('ARGUMENTS_TOO_DEEP');
  });

  it('finds a forbidden key hidden behind a JSON escape', async () => {
    const out = await invokeTool(ShopTools, 'shop_echo', '{"value":{"__pro\\u0074o__":{"polluted":true}}}', { providers });
    expect(out.error?.code).toBe('MALFORMED_ARGUMENTS');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('goes through the confirmation gate', async () => {
    const small = await invokeTool(ShopTools, 'shop_refund', { amount: 5 }, { providers });
    expect(small.response).toEqual({ refunded: 5 });
    const big = await invokeTool(ShopTools, 'shop_refund', { amount: 500 }, { providers });
    expect(big.confirmationRequested).toBe(true);
    expect(big.actions.requestedToolConfirmations?.['call-1']).toBeDefined();
    const confirmed = await invokeTool(ShopTools, 'shop_refund', { amount: 500 }, { providers, toolConfirmation: { confirmed: true } });
    expect(confirmed.response).toEqual({ refunded: 500 });
    const denied = await invokeTool(ShopTools, 'shop_refund', { amount: 500 }, { providers, toolConfirmation: { confirmed: false } });
    expect(denied.error?.code).toBe('TOOL_CALL_REJECTED');
  });

  it('checks class-validator rules before asking for confirmation', async () => {
    const bad = await invokeTool(ShopTools, 'shop_invite', { email: 'nope', password: '12345678' }, { providers });
    expect(bad.confirmationRequested).toBe(false);
    expect(bad.error?.message).toBe('Invalid arguments for tool "shop_invite": email: got "nope", expected an email.');
    const good = await invokeTool(ShopTools, 'shop_invite', { email: 'a@b.co', password: '12345678' }, { providers });
    expect(good.confirmationRequested).toBe(true);
    const confirmed = await invokeTool(ShopTools, 'shop_invite', { email: 'a@b.co', password: '12345678' }, { providers, toolConfirmation: { confirmed: true } });
    expect(confirmed.response).toEqual({ invited: 'a@b.co' });
  });

  it('reports a missing provider as a typed error naming the chain', async () => {
    const out = await invokeTool(ShopTools, 'shop_add', { a: 1 });
    expect(out.error?.code).toBe('MISSING_PROVIDER');
    expect(out.error?.message).toContain('dependency chain: ShopTools -> Inventory');
  });
});

describe('other parameter shapes', () => {
  class Shapes {
    @Tool()
    withDtoParam(@Param('signup', { description: 'New account' }) signup: SignupDto, @Param('tag') tag: string) {
      return { isDto: signup instanceof SignupDto, email: signup.email, tag };
    }

    @Tool({ inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } })
    whole(args: Record<string, unknown>, ctx: ToolContext) {
      return { args, user: ctx.userId };
    }

    @Tool({ inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } })
    byName(@Param('b') b: number, @Param('a') a: number) {
      return a - b;
    }
  }

  it('takes a DTO as one named @Param: nested object schema, instance, class-validator errors with the path', async () => {
    const [tool] = scanToolsOf(Shapes);
    expect(tool.parameters).toMatchObject({
      properties: { signup: { type: 'object', description: 'New account', required: ['email', 'password'] }, tag: { type: 'string' } },
      required: ['signup', 'tag'],
    });
    const ok = await invokeTool(Shapes, 'withDtoParam', { signup: { email: 'a@b.co', password: '12345678' }, tag: 't' });
    expect(ok.response).toEqual({ isDto: true, email: 'a@b.co', tag: 't' });
    const bad = await invokeTool(Shapes, 'withDtoParam', { signup: { email: 'x', password: '12345678' }, tag: 't' });
    expect(bad.error?.message).toBe('Invalid arguments for tool "withDtoParam": signup.email: got "x", expected an email.');
  });

  it('with an explicit inputSchema, hands an untyped parameter the whole arguments and binds @Param by name', async () => {
    expect((await invokeTool(new Shapes(), 'whole', { q: 'x' }, { userId: 'me' })).response).toEqual({ args: { q: 'x' }, user: 'me' });
    expect((await invokeTool(new Shapes(), 'whole', {})).error?.code).toBe('INVALID_ARGUMENTS');
    expect((await invokeTool(new Shapes(), 'byName', { a: 10, b: 3 })).response).toEqual({ result: 7 });
  });
});

const scanToolsOf = (cls: Function) => createClassTools(cls, { container: new Container() });

describe('createClassTools', () => {
  it('resolves the instance lazily at the first call and keeps a singleton', async () => {
    built = 0;
    const container = new Container(providers);
    const tools = createClassTools(ShopTools, { container });
    expect(built).toBe(0);
    const add = tools.find((t) => t.name === 'shop_add')!;
    await invokeTool(add, 'shop_add', { a: 1 });
    await invokeTool(add, 'shop_add', { a: 2 });
    expect(built).toBe(1);
  });

  it('uses an instance as it is', async () => {
    const instance = new ShopTools(new Inventory({ Z: 9 }));
    const tools = createClassTools(instance, { container: new Container() });
    const out = await invokeTool(tools.find((t) => t.name === 'shop_stock')!, 'shop_stock', { sku: 'Z' });
    expect(out.response).toMatchObject({ available: 9 });
  });

  it('asks a foreign container on every call, with the run as scope', async () => {
    const scopes: ResolutionScope[] = [];
    const adapter: ContainerAdapter = {
      resolve: <T>(_token: unknown, scope?: ResolutionScope) => {
        scopes.push(scope!);
        return Promise.resolve(new ShopTools(new Inventory({})) as T);
      },
    };
    await invokeTool(ShopTools, 'shop_add', { a: 1 }, { container: adapter, userId: 'u1', sessionId: 's1', invocationId: 'i1' });
    await invokeTool(ShopTools, 'shop_add', { a: 1 }, { container: adapter, userId: 'u2', sessionId: 's2', invocationId: 'i2' });
    expect(scopes).toEqual([
      { invocationId: 'i1', userId: 'u1', sessionId: 's1' },
      { invocationId: 'i2', userId: 'u2', sessionId: 's2' },
    ]);
  });

  it('accepts a thenable from a foreign container', async () => {
    const instance = new ShopTools(new Inventory({ T: 1 }));
    const adapter: ContainerAdapter = {
      resolve: <T>() => ({ then: (ok: (value: T) => void) => ok(instance as T) }) as unknown as Promise<T>,
    };
    expect((await invokeTool(ShopTools, 'shop_stock', { sku: 'T' }, { container: adapter })).response).toMatchObject({ available: 1 });
  });

  it('fails at once for a class without tools', () => {
    class Nothing {}
    expect(() => createClassTools(Nothing, { container: new Container() })).toThrow(
      'Nothing has no @Tool methods. Fix: decorate the methods the model may call with @Tool(), or leave the class out of the agent\'s tools.',
    );
  });

  it('declares each tool for the model, with the long-running note', () => {
    class Jobs {
      @Tool({ description: 'Starts an export.', longRunning: true })
      start(@Param('table') table: string) {
        return { status: 'pending', table };
      }
    }
    const [tool] = createClassTools(new Jobs(), { container: new Container() });
    expect(tool.declaration()).toMatchObject({ name: 'start', parameters: { required: ['table'] } });
    expect(tool.declaration().description).toContain('Starts an export.\n\nNOTE: This is a long-running operation.');
  });
});
