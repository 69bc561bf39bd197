import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The install path a user takes, end to end: every package packed as npm would publish it, a fresh
// project outside the monorepo, the tarballs installed with npm (copies, not links), and the
// getting-started app of docs/getting-started.md (examples/getting-started, copied) compiled, run,
// tested and served over MCP from there. Slow by nature (an npm install), so everything is done once.

const ROOT = resolve(__dirname, '..', '..', '..');
const APP_SOURCE = join(ROOT, 'examples', 'getting-started');
const PACKAGES = ['core', 'openai', 'anthropic', 'gemini', 'nestjs', 'mcp', 'cli', 'postgres', 'devtools'];
/** Every package is installed into the app (the cli as a devDependency), so each one's install and entry point are checked. */
const INSTALLED = PACKAGES;
/** Third-party packages of the app, at the versions the monorepo has (so npm's cache has them). */
const THIRD_PARTY = ['class-validator', 'class-transformer', 'reflect-metadata'];
const THIRD_PARTY_DEV = ['typescript', 'jest', 'ts-jest', '@types/jest', '@types/node'];

/** Output folder → compiler options over the app's tsconfig.json. */
const COMPILES: Record<string, Record<string, string>> = {
  dist: {},
  'dist-node': { module: 'commonjs', moduleResolution: 'node' },
};

function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...withoutProviderKeys(process.env), ...env }, timeout: 240_000 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** A structured answer typed by an interface: `manifestType` in an installed app, found by `toolsmith schema`. */
const SUMMARY_SOURCE = `import { LlmAgent, Runner, manifestType } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';

/** What the summarizer answers. */
interface Summary {
  /** Tasks still open */
  open: number;
  titles: string[];
}

const answers = ['{"open":"one","titles":["Buy milk"]}', '{"open":1,"titles":["Buy milk"]}'];
const agent = new LlmAgent({ name: 'summarizer', model: new ScriptedModel(answers), outputSchema: manifestType<Summary>('Summary') });

async function main(): Promise<void> {
  const runner = new Runner({ appName: 'todo', agent });
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Summarize' }] } })) {
    const summary: Summary | undefined = agent.outputOf(event);
    console.log(summary ? \`summary \${JSON.stringify(summary)}\` : \`event \${event.errorCode ?? 'answer'}\`);
  }
}

void main();
`;

/** The app must run offline: no provider key reaches it. */
function withoutProviderKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'TOOLSMITH_MODEL', 'TOOLSMITH_MANIFEST', 'NODE_OPTIONS']) delete copy[key];
  // jest sets these for its workers; the app's own jest must not inherit them.
  delete copy.JEST_WORKER_ID;
  return copy;
}

describe('the real install path: packed tarballs in a fresh project', () => {
  let work: string;
  let app: string;
  const tarballs = new Map<string, string>();

  beforeAll(() => {
    for (const name of PACKAGES) {
      if (!existsSync(join(ROOT, 'packages', name, 'dist', 'index.js'))) throw new Error(`packages/${name} is not built: run \`npm run build\` (npm test does) first`);
    }
    work = mkdtempSync(join(tmpdir(), 'toolsmith-install-'));
    const packed = join(work, 'tarballs');
    mkdirSync(packed);
    // --ignore-scripts: pack what the build made (devtools' prepack would rebuild it).
    run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', packed, ...PACKAGES.map((name) => `./packages/${name}`)], ROOT);
    for (const file of readdirSync(packed)) tarballs.set(file.replace(/^toolsmith-/, '').replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''), join(packed, file));

    app = join(work, 'app');
    mkdirSync(app);
    for (const entry of ['src', 'tsconfig.json', 'jest.config.js']) cpSync(join(APP_SOURCE, entry), join(app, entry), { recursive: true });
    // An agent whose answer is a plain TypeScript type, through the manifest `toolsmith schema` writes.
    writeFileSync(join(app, 'src', 'summary.ts'), SUMMARY_SOURCE);
    const dependencies = Object.fromEntries([
      ...INSTALLED.filter((name) => name !== 'cli').map((name) => [`@toolsmith/${name}`, `file:${tarballs.get(name)}`]),
      ...THIRD_PARTY.map((name) => [name, installedVersion(name)]),
    ]);
    const devDependencies = Object.fromEntries([['@toolsmith/cli', `file:${tarballs.get('cli')}`], ...THIRD_PARTY_DEV.map((name) => [name, installedVersion(name)])]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'todo-app', version: '1.0.0', private: true, dependencies, devDependencies }, null, 2));
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], app);
    // The documented tsconfig (node16), and the same with moduleResolution node, which finds the subpaths through typesVersions.
    for (const [outDir, overrides] of Object.entries(COMPILES)) {
      writeFileSync(join(app, `tsconfig.${outDir}.json`), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { ...overrides, outDir } }));
      run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', `tsconfig.${outDir}.json`], app);
    }
    run(join(app, 'node_modules', '.bin', 'toolsmith'), ['schema', '--quiet'], app);
  }, 300_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs every package without tests or fixtures', () => {
    expect([...tarballs.keys()].sort()).toEqual([...PACKAGES].sort());
    for (const [name, tarball] of tarballs) {
      const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout;
      expect({ name, license: listing.includes('package/LICENSE'), readme: listing.includes('package/README.md') }).toEqual({ name, license: true, readme: true });
      expect({ name, unwanted: listing.split('\n').filter((file) => /\.test\.|__fixtures__|tsbuildinfo|^package\/src\//.test(file)) }).toEqual({ name, unwanted: [] });
    }
    expect(spawnSync('tar', ['-tzf', tarballs.get('core')!], { encoding: 'utf8' }).stdout).toContain('package/dist/testing/index.d.ts');
  });

  it('installs copies (not links), with one class-validator, class-transformer and reflect-metadata', () => {
    run('npm', ['ls', 'class-validator', 'class-transformer', 'reflect-metadata', '@toolsmith/core'], app);
    const ls = run('npm', ['ls', '--all', '--parseable', 'class-transformer'], app).stdout.trim().split('\n');
    expect(ls).toEqual([join(app, 'node_modules', 'class-transformer')]);
    expect(readdirSync(join(app, 'node_modules', '@toolsmith')).sort()).toEqual([...INSTALLED].sort());
  });

  it.each(PACKAGES)('loads @toolsmith/%s from its tarball through its entry points', (name) => {
    const subpaths = name === 'core' ? ['', '/testing', '/adapter-kit', '/internal'] : [''];
    const script = subpaths.map((subpath) => `require('@toolsmith/${name}${subpath}');`).join('');
    run(process.execPath, ['-e', script], app);
    // A copy inside the app, not a link back into the monorepo.
    expect(realpathSync(join(app, 'node_modules', '@toolsmith', name))).toBe(join(realpathSync(app), 'node_modules', '@toolsmith', name));
  });

  it.each(Object.keys(COMPILES))('runs offline on ScriptedModel, compiled into %s', (outDir) => {
    const output = run(process.execPath, [join(outDir, 'main.js')], app).stdout;
    expect(output).toContain('call  createTask {"title":"Buy milk","priority":"high","dueDate":"2026-12-24"}');
    expect(output).toContain('result {"status":"created","task":{"id":1,"title":"Buy milk","priority":"high","dueDate":"2026-12-24"}}');
    expect(output).toContain('agent I added "Buy milk"');
  });

  it.each(Object.keys(COMPILES))('answers with a manifestType<Summary> object, checked against the schema from the manifest (%s)', (outDir) => {
    const manifest = JSON.parse(readFileSync(join(app, 'toolsmith.schema.json'), 'utf8')) as { types?: Record<string, { source: string; schema: unknown }> };
    expect(manifest.types?.Summary).toMatchObject({ source: 'src/summary.ts', schema: { type: 'object', properties: { open: { type: 'number', description: 'Tasks still open' } } } });
    const output = run(process.execPath, [join(outDir, 'summary.js')], app).stdout;
    expect(output.trim().split('\n')).toEqual(['event OUTPUT_INVALID', 'summary {"open":1,"titles":["Buy milk"]}']);
  });

  it("runs the app's jest test with ts-jest, without warnings", () => {
    const result = run(join(app, 'node_modules', '.bin', 'jest'), ['--ci'], app);
    const output = `${result.stdout}${result.stderr}`;
    expect(output).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(output).not.toMatch(/TS151002|ts-jest\[.*\] \(WARN\)/);
  });

  it('finds the manifest up to date with toolsmith schema --check', () => {
    const result = run(join(app, 'node_modules', '.bin', 'toolsmith'), ['schema', '--check', '--quiet'], app);
    expect(result.stderr).toContain('toolsmith.schema.json is up to date');
  });

  it('serves the tools over MCP (toolsmith mcp) to the official MCP client', async () => {
    const client = new Client({ name: 'real-install-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: join(app, 'node_modules', '.bin', 'toolsmith'),
        args: ['mcp', join('dist', 'task-tools.js')],
        cwd: app,
        env: withoutProviderKeys(process.env) as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['createTask', 'listTasks']);
      const created = (await client.callTool({ name: 'createTask', arguments: { title: 'Buy milk', priority: 'high' } })) as CallToolResult;
      expect(created.isError).toBeFalsy();
      expect(created.structuredContent).toEqual({ status: 'created', task: { id: 1, title: 'Buy milk', priority: 'high' } });
      const invalid = (await client.callTool({ name: 'createTask', arguments: { title: '', priority: 'urgent', dueDate: 'next friday' } })) as CallToolResult;
      expect(invalid.isError).toBe(true);
      expect(JSON.stringify(invalid.content)).toMatch(/dueDate/);
    } finally {
      await client.close();
    }
  });
});
