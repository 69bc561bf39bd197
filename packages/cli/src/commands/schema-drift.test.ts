import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../__fixtures__/run-cli';

const FIXTURE = resolve(__dirname, '..', '__fixtures__', 'drift-project');

const run = runCli;

/** The line of `text` in the fixture's order-tools.ts, 1-based, for the expected `file:line:column`. */
function lineOf(source: string, text: string): number {
  const index = source.split('\n').findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`not in the fixture: ${text}`);
  return index + 1;
}

describe('toolsmith schema --check: drift that reflection cannot see', () => {
  let dir: string;
  let file: string;
  let source: string;
  let check: { code: number; stderr: string };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-drift-'));
    cpSync(FIXTURE, dir, { recursive: true });
    file = join(dir, 'src', 'order-tools.ts');
    source = readFileSync(file, 'utf8');
    expect((await run(['schema', '-q'], dir)).code).toBe(0);
    check = await run(['schema', '--check', '-q'], dir);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const at = (text: string) => `src/order-tools.ts:${lineOf(source, text)}:`;

  it('exits 1 although the manifest is up to date, and counts the places', () => {
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('toolsmith.schema.json is up to date.\n');
    expect(check.stderr).toContain('8 places where a type and what the runtime is told about it disagree:\n');
  });

  it.each([
    [
      'a literal union with no enum',
      "list(@Param('status') status: Status)",
      `OrderTools.list, parameter status: its type is Status, but @Param('status') gives no enum, so without the manifest reflection sees only String and the tool accepts any string.\n    Fix: @Param('status', { enum: ["open","shipped"] }).`,
    ],
    [
      'an enum wider than the type',
      "count(@Param('status'",
      `OrderTools.count, parameter status: @Param('status') allows "cancelled" in its enum, which its type Status does not.\n    Fix: make the enum and the type list the same values (["open","shipped"]).`,
    ],
    [
      'a @Param schema that disagrees with the type',
      "get(@Param('id'",
      'OrderTools.get, parameter id: its schema allows type string, but its type is number.\n    Fix: make the schema and the type say the same (the type\'s schema is {"type":"number"}), or drop the schema and let the manifest describe the type.',
    ],
    [
      'a DTO property with no class-validator decorator',
      '  note?: string;',
      'SearchDto.note has no class-validator decorator, so it is not in the tool\'s schema: the model is never told about it, and an argument for it is refused as unknown.\n    Fix: add the decorator that says what it holds (@IsString(), @IsInt(), @IsOptional(), …), @Allow() for any value, or remove the property.',
    ],
    [
      'a nested DTO property with no decorator',
      '  quantity!: number;',
      'Line.quantity has no class-validator decorator',
    ],
    [
      'an @IsOptional property that can receive null',
      'limit = 10;',
      'SearchDto.limit is @IsOptional(), which lets null through (class-validator skips every rule for null), but its type number does not admit null: the tool can receive null instead of its default 10.\n    Fix: type it number | null and handle null, or refuse null: replace @IsOptional() with @ValidateIf((dto) => dto.limit !== undefined) and put @UseClassValidator() on SearchDto.',
    ],
    [
      'an injected class imported with import type',
      'private readonly orders: OrderRepository',
      "constructor parameter orders of OrderTools is typed OrderRepository, imported with `import type`: it has no runtime value (the compiled metadata says Function, or Object), so the container cannot tell what to inject.\n    Fix: import it as a value: import { OrderRepository } from './order-repository'.",
    ],
    [
      'an injected interface with no @Inject',
      'constructor(readonly clock: Clock)',
      'constructor parameter clock of Auditor is typed Clock, an interface: it has no runtime value',
    ],
  ])('reports %s with its file:line and the fix', (_name, line, message) => {
    expect(check.stderr).toContain(`  - ${at(line)}`);
    const reported = check.stderr.split('\n  - ').find((entry) => entry.startsWith(at(line)));
    expect(reported).toContain(message);
  });

  it('says nothing of the forms that agree (an enum equal to the union, a narrower schema, @IsOptional with | null, @Inject)', () => {
    expect(check.stderr).not.toMatch(/OrderTools\.fine|cursor|SearchDto\.lines|parameter clock of OrderTools|SearchDto\.query/);
  });

  it('passes once each drift is fixed', async () => {
    const fixed = source
      .replace("import type { OrderRepository }", "import { OrderRepository }")
      .replace("list(@Param('status') status", "list(@Param('status', { enum: ['open', 'shipped'] }) status")
      .replace("'shipped', 'cancelled']", "'shipped']")
      .replace("{ schema: { type: 'string' } }) id: number", "{ schema: { type: 'number' } }) id: number")
      .replace('  note?: string;', '  @IsOptional() @IsString() note?: string | null;')
      .replace('  quantity!: number;', '  @IsInt() quantity!: number;')
      .replace('limit = 10;', 'limit: number | null = 10;')
      .replace('constructor(readonly clock: Clock)', 'constructor(@Inject(CLOCK) readonly clock: Clock)');
    writeFileSync(file, fixed);
    expect((await run(['schema', '-q'], dir)).code).toBe(0);
    expect(await run(['schema', '--check', '-q'], dir)).toEqual({ code: 0, stdout: '', stderr: 'toolsmith.schema.json is up to date.\n' });
  }, 60_000);
});
