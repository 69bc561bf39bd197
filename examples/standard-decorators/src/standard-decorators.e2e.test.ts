import { main as toolsmith } from '@toolsmith/cli';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// The example compiled with TypeScript's standard decorators (its tsconfig turns the legacy options
// off), run as a user would: the tsc build with node, the sources with tsx, the spec with vitest.
// Jest itself compiles with legacy decorators, so everything here runs in child processes.

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..');

/** What the offline conversation prints, with every runner of the sources. */
const CONVERSATION = [
  'call orders_getOrder {"orderId":"A-1001"}',
  'result orders_getOrder found',
  'call orders_cancelOrder {"orderId":"A-1001","reason":"bored"}',
  'error orders_cancelOrder INVALID_ARGUMENTS',
  'call orders_cancelOrder {"orderId":"A-1001","reason":"changed_mind"}',
  'approve orders_cancelOrder: Cancel this order?',
  'result orders_cancelOrder cancelled',
  'agent Order A-1001 is cancelled.',
];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[]): Promise<Ran> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.NODE_OPTIONS;
  delete env.TOOLSMITH_MANIFEST;
  return new Promise((done) => {
    execFile(command, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 110_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('a toolset compiled with standard decorators', () => {
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('examples/standard-decorators is not built: run `npm run build` (npm test does) first');
  });

  it('runs through the runner when built by tsc and run by node', async () => {
    const ran = await run('node', ['dist/main.js']);
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
    expect(ran.stdout.trim().split('\n')).toEqual(CONVERSATION);
  });

  it('runs the same from its sources through tsx (esbuild, standard decorators, no metadata)', async () => {
    const ran = await run('npx', ['tsx', 'src/main.ts']);
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
    expect(ran.stdout.trim().split('\n')).toEqual(CONVERSATION);
  });

  it('passes its vitest spec, with the config that lowers the decorators with esbuild', async () => {
    const ran = await run('npx', ['vitest', 'run']);
    expect({ code: ran.code, output: ran.code === 0 ? '' : ran.stdout + ran.stderr }).toEqual({ code: 0, output: '' });
    expect(ran.stdout).toMatch(/Tests\s+4 passed \(4\)/);
  });

  it('fails under vitest without that plugin: Vite 8 leaves standard decorators in the code', async () => {
    const ran = await run('npx', ['vitest', 'run', '--config', 'fixtures/vitest.esbuild-less.mts', '--root', '.']);
    expect(ran.code).not.toBe(0);
    expect(ran.stdout + ran.stderr).toContain('SyntaxError: Invalid or unexpected token');
  });

  it('is checked by TypeScript: no parameter decorator (TS1206), no `import type` class or interface in an inject list, a method that takes what @Tool({ input }) gives', async () => {
    const compiled = await run('npx', ['tsc', '-p', 'fixtures/tsconfig.json']);
    expect(compiled.code).not.toBe(0);
    expect(compiled.stdout.trim().split('\n').filter((line) => line.startsWith('fixtures/'))).toEqual([
      "fixtures/inject-list-types.ts(11,21): error TS1361: 'OrderStore' cannot be used as a value because it was imported using 'import type'.",
      "fixtures/inject-list-types.ts(21,21): error TS2693: 'Clock' only refers to a type, but is being used as a value here.",
      'fixtures/param-decorator.ts(8,14): error TS1206: Decorators are not valid here.',
      // The `wrong` tool only: `refund` takes the schema's output type.
      'fixtures/standard-schema-input.ts(15,4): error TS1241: Unable to resolve signature of method decorator when called as an expression.',
    ]);
    expect(compiled.stdout).toContain("Type 'string' is not assignable to type 'number'.");
  });

  it('cannot use @Param under tsx either: esbuild refuses parameter decorators without experimentalDecorators', async () => {
    const ran = await run('npx', ['tsx', 'fixtures/param-decorator.ts']);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain('ERROR: Parameter decorators only work when experimental decorators are enabled');
  });

  it('with experimentalDecorators, tsx runs legacy decorators but emits no metadata: a TypeScript-typed @Param and an unlisted dependency are refused, saying why', async () => {
    const ran = await run('npx', ['tsx', '--tsconfig', 'fixtures/legacy-without-metadata/tsconfig.json', 'fixtures/legacy-without-metadata/weather-tools.ts']);
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
    const [scan, resolve] = ran.stdout.trim().split('\n');
    expect(scan).toMatch(/^MISSING_TYPE_METADATA: WeatherTools\.report: TypeScript emitted no parameter types \(design:paramtypes is missing\)/);
    expect(resolve).toMatch(/^UNKNOWN_DEPENDENCY_TYPE: Cannot resolve WeatherTools: it is decorated, but its constructor parameters have no types at runtime: .* Fix: list WeatherTools's dependencies in constructor order: @Injectable\(\{ inject: \[\.\.\.\] \}\) \(a tools class: @Toolset\(\{ inject: \[\.\.\.\] \}\)\)/);
  });

  it('has a committed manifest that matches its sources (toolsmith schema --check)', async () => {
    let stderr = '';
    const code = await toolsmith(['schema', '--check', '--quiet', '--project', join(ROOT, 'tsconfig.json')], {
      stdout: { write: () => undefined },
      stderr: { write: (text: string) => void (stderr += text) },
      cwd: ROOT,
    });
    expect(stderr).toContain('is up to date');
    expect(code).toBe(0);
  });
});
