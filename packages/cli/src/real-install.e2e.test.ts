import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

// The install path a user takes, end to end, on what npm resolves today. Every package is packed as the
// guide packs it and installed from its tarball alone, as the guide installs it: no registry serves the
// @toolsmith scope, so a tarball an install needs and does not name fails it with E404, as it would for
// the user (every other package comes from npm's registry, at today's versions: the user's TypeScript,
// jest and types are not the monorepo's pins). docs/getting-started.md is then followed literally in an empty folder: its files written and its
// commands run in the order the page shows them, each command's output compared with the page's. The
// same install then checks TypeScript 5.9 beside today's TypeScript (7), every package's declarations
// with `skipLibCheck: false`, an output type from the manifest, MCP and the provider error. Slow by
// nature (npm installs from the registry), so each install is done once and shared by the checks.

// Every check runs npm, npx or node in the installed app: on a busy machine one takes well over jest's default.
jest.setTimeout(120_000);

const ROOT = resolve(__dirname, '..', '..', '..');
const GUIDE = join(ROOT, 'docs', 'getting-started.md');
const PACKAGES = ['core', 'openai', 'anthropic', 'gemini', 'nestjs', 'mcp', 'cli', 'postgres', 'devtools', 'evals'];
/** Guide commands the walk does not run as they are: the MCP server (started by the MCP client below) and the real provider (run against a closed loopback port). */
const SERVE_COMMAND = 'npx toolsmith mcp dist/task-tools.js';
const PROVIDER_COMMAND = 'OPENAI_API_KEY=sk-... node dist/main.js';
/** Every entry point, imported by a program compiled with `skipLibCheck: false`. */
const ENTRY_POINTS = [...PACKAGES.map((name) => `@toolsmith/${name}`), '@toolsmith/core/testing', '@toolsmith/core/adapter-kit', '@toolsmith/core/internal'];
/** TypeScript 5.9 output folders → compiler options over the app's tsconfig.json (`moduleResolution: node` is gone from TypeScript 7). */
const TS5_COMPILES: Record<string, Record<string, string | boolean>> = {
  'dist-ts5': { skipLibCheck: false },
  'dist-ts5-node': { module: 'commonjs', moduleResolution: 'node' },
};

/** examples/standard-decorators, copied into the installed app (its sources, spec and vitest config) and built by the app's TypeScript. */
const STANDARD_EXAMPLE = join(ROOT, 'examples', 'standard-decorators');
const STANDARD_FILES = ['src/order-store.ts', 'src/order-tools.ts', 'src/main.ts', 'src/order-tools.spec.ts', 'vitest.config.mts'];
/** The example's tsconfig as a user writes it: standard decorators (the two legacy options left out), nothing else from the monorepo. */
const STANDARD_TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, skipLibCheck: false, outDir: 'dist', rootDir: 'src', types: ['node'] },
  include: ['src'],
  exclude: ['src/**/*.spec.ts'],
};

interface Ran {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

type GuideStep = { file: string; text: string } | { commands: string[]; output?: string };

/** The page's fenced blocks in order: files to write (`<!-- file: … -->`), bash blocks to run, and the output block shown after a bash block. */
function readGuide(): GuideStep[] {
  const steps: GuideStep[] = [];
  const page = readFileSync(GUIDE, 'utf8');
  let previousEnd = 0;
  for (const match of page.matchAll(/(?:<!-- file: (\S+) -->\n)?```(\w*)\n([\s\S]*?)```\n/g)) {
    const [whole, file, language, text] = match;
    const last = steps.at(-1);
    if (file) steps.push({ file, text });
    else if (language === 'bash') steps.push({ commands: text.split('\n').filter((line) => line.trim() !== '') });
    else if (language === '' && last && 'commands' in last && page.slice(previousEnd, match.index).trim() === '') last.output = text;
    previousEnd = match.index + whole.length;
  }
  return steps;
}

/** A user's shell: no provider keys, nothing of the jest or npm process that runs this test. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(npm_|INIT_CWD$|JEST_WORKER_ID$|NODE_OPTIONS$|OPENAI_|ANTHROPIC_|GEMINI_|TOOLSMITH_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command line in bash (asynchronously: independent commands run side by side). */
function sh(command: string, cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((done) => {
    execFile('bash', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ command, code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

function expectSuccess(ran: Ran | undefined): void {
  expect(ran && { command: ran.command, code: ran.code, output: ran.code === 0 ? '' : `${ran.stdout}\n${ran.stderr}` }).toEqual({ command: ran?.command, code: 0, output: '' });
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

/**
 * A zod toolset in an installed app (today's zod from npm): `@Tool({ input })` on a class and `functionTool`,
 * each parameter declared once; zod judges the model's arguments, and its words reach the model.
 */
const ZOD_TOOLS_SOURCE = `import { LlmAgent, Runner, Tool, Toolset, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { z } from 'zod';

const Refund = z.object({ orderId: z.string().regex(/^A-\\d{4}$/), amount: z.number().positive() });

@Toolset()
export class RefundTools {
  @Tool({ description: 'Refunds an order.', input: Refund, requireConfirmation: (args) => args.amount > 1000 })
  refund(args: { orderId: string; amount: number }) {
    return { refunded: args.amount, orderId: args.orderId };
  }
}

const lookUp = functionTool({
  name: 'look_up',
  description: 'Looks up an order.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ orderId: orderId.toUpperCase(), status: 'open' }),
});

const model = new ScriptedModel([
  { calls: [{ id: 'c1', name: 'refund', args: { orderId: 'B-1', amount: 5 } }] },
  { calls: [{ id: 'c2', name: 'refund', args: { orderId: 'A-1001', amount: 5 } }, { id: 'c3', name: 'look_up', args: { orderId: 'a-1001' } }] },
  'Refunded.',
]);
const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, tools: [RefundTools, lookUp] }) });

async function main(): Promise<void> {
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Refund A-1001' }] } })) {
    for (const { name, response } of event.functionResponses()) {
      const error = (response as { error?: { message: string } }).error;
      console.log(\`result \${name} \${error ? error.message : JSON.stringify(response)}\`);
    }
    if (event.isFinalResponse() && event.text()) console.log(\`agent \${event.text()}\`);
  }
  console.log(\`declared \${JSON.stringify(model.requests[0].tools?.map((tool) => tool.parameters))}\`);
}

void main();
`;

/**
 * An arktype tool (today's arktype from npm, which ships only ES modules) in a CommonJS folder of the app:
 * with the guide's `module: node16` TypeScript stops at TS1479; with `module: node20` the compiled
 * `require('arktype')` loads the ES module (docs/schemas.md says so).
 */
const ARK_SOURCE = `import { LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { type } from 'arktype';

const refund = functionTool({
  name: 'refund',
  description: 'Refunds an order.',
  parameters: type({ orderId: 'string', amount: 'number > 0' }),
  execute: ({ orderId, amount }) => ({ refunded: amount, orderId }),
});

const model = new ScriptedModel([
  { calls: [{ name: 'refund', args: { orderId: 'A-1001', amount: -5 } }] },
  { calls: [{ name: 'refund', args: { orderId: 'A-1001', amount: 5 } }] },
  'Refunded.',
]);
const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, tools: [refund] }) });

async function main(): Promise<void> {
  const { text, events } = await runner.ask({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Refund A-1001' }] } });
  for (const event of events) for (const { response } of event.functionResponses()) console.log(\`result \${JSON.stringify(response)}\`);
  console.log(\`agent \${text}\`);
  console.log(\`declared \${JSON.stringify(model.requests[0].tools?.map((tool) => tool.parameters))}\`);
}

void main();
`;
const ARK_TSCONFIG = { extends: '../tsconfig.json', compilerOptions: { module: 'node20', rootDir: 'src', outDir: 'dist' }, include: ['src'] };

describe('the real install path: the guide followed on what npm resolves today', () => {
  let work: string;
  let app = '';
  const tarballs = new Map<string, string>();
  const guide = readGuide();
  const guideCommands = guide.flatMap((step) => ('commands' in step ? step.commands.map((command) => ({ command, output: step.commands.length === 1 ? step.output : undefined })) : []));
  /** What each guide command did, by command line. */
  const walked = new Map<string, Ran>();
  /** Later checks on the same install, by name. */
  const checks = new Map<string, Ran>();
  const latest: Record<string, string> = {};
  const installed: Record<string, string> = {};

  beforeAll(async () => {
    for (const name of PACKAGES) {
      if (!existsSync(join(ROOT, 'packages', name, 'dist', 'index.js'))) throw new Error(`packages/${name} is not built: run \`npm run build\` (npm test does) first`);
    }
    work = mkdtempSync(join(tmpdir(), 'toolsmith-install-'));
    const packed = join(work, 'tarballs');
    mkdirSync(packed);
    // --ignore-scripts: pack what the build made (devtools' prepack would rebuild it).
    const pack = spawnSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', packed, ...PACKAGES.map((name) => `./packages/${name}`)], { cwd: ROOT, encoding: 'utf8' });
    if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
    for (const file of readdirSync(packed)) tarballs.set(file.replace(/^toolsmith-/, '').replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''), join(packed, file));
    // The guide installs Toolsmith from the tarballs named by TOOLSMITH_TARBALLS (its first block packs them in a clone), and so does every install here.
    const env = userEnv({ TOOLSMITH_TARBALLS: packed });
    /** Runs a command and keeps what it did as the check `name`. */
    const check = async (name: string, command: string, cwd: string): Promise<void> => {
      checks.set(name, await sh(command, cwd, env));
    };
    // Independent commands run side by side (jest gives this file one worker; a machine has two cores or more).
    // Today's versions on npm's registry, asked while the app installs.
    const latestVersions = Promise.all(['typescript', 'jest'].map(async (name) => [name, (await sh(`npm view ${name} version`, work, env)).stdout.trim()] as const));

    // The other packages (their peers come with them), every entry point compiled with skipLibCheck false
    // by today's TypeScript, and an agent whose answer is a plain TypeScript type: added to the app before
    // the guide's own `toolsmith schema`, which then writes that type into the manifest too.
    const others = PACKAGES.filter((name) => !['core', 'openai', 'cli', 'devtools', 'evals', 'mcp'].includes(name)).map((name) => `"$TOOLSMITH_TARBALLS"/toolsmith-${name}-*.tgz`);
    // The lib check (a program of the app and every declaration it imports) runs beside the guide's
    // `toolsmith schema`, which reads only the sources; it ends before the app's next npm install.
    let libCheck = Promise.resolve();
    const addTheRest = async (app: string): Promise<void> => {
      checks.set('install', await sh(`npm install ${others.join(' ')} zod arktype`, app, env));
      writeFileSync(join(app, 'src', 'entry-points.ts'), ENTRY_POINTS.map((entry, i) => `import * as entry${i} from '${entry}';\n`).join('') + `export const entryPoints = [${ENTRY_POINTS.map((_, i) => `entry${i}`).join(', ')}];\n`);
      writeFileSync(join(app, 'src', 'summary.ts'), SUMMARY_SOURCE);
      writeFileSync(join(app, 'src', 'zod-tools.ts'), ZOD_TOOLS_SOURCE);
      writeFileSync(join(app, 'tsconfig.lib-check.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { skipLibCheck: false } }));
      libCheck = check('ts7 build, skipLibCheck false', 'npx tsc -p tsconfig.lib-check.json', app);
    };

    // The guide, step by step, from an empty folder. A `cd` in a command carries over to the next ones.
    let cwd = join(work, 'user');
    mkdirSync(cwd);
    const cwdFile = join(work, 'cwd');
    for (const step of guide) {
      if ('file' in step) {
        const path = join(cwd, step.file.replace(/^examples\/getting-started\//, ''));
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, step.text);
        continue;
      }
      for (const command of step.commands) {
        if (command === SERVE_COMMAND || command === PROVIDER_COMMAND) continue;
        if (/^npx toolsmith schema(?! --print)/.test(command)) await addTheRest(cwd);
        walked.set(command, await sh(`set -e\n${command}\npwd > ${cwdFile}`, cwd, env));
        if (walked.get(command)?.code === 0) cwd = readFileSync(cwdFile, 'utf8').trim();
      }
    }
    app = cwd;
    await libCheck;

    // A standard-decorator toolset in its own folder of the app (no experimentalDecorators, no
    // emitDecoratorMetadata): today's tsx, vitest and esbuild from npm, its manifest from the installed
    // CLI, built by today's TypeScript (7) here and by 5.9 below.
    const standard = join(app, 'standard');
    for (const file of STANDARD_FILES) {
      mkdirSync(dirname(join(standard, file)), { recursive: true });
      writeFileSync(join(standard, file), readFileSync(join(STANDARD_EXAMPLE, file), 'utf8'));
    }
    writeFileSync(join(standard, 'tsconfig.json'), JSON.stringify(STANDARD_TSCONFIG, null, 2));
    checks.set('standard: install tsx, vitest, esbuild', await sh('npm install --save-dev tsx vitest esbuild', app, env));
    // arktype (installed with the other packages) in a CommonJS folder: refused under module node16, built under node20.
    const ark = join(app, 'ark');
    mkdirSync(join(ark, 'src'), { recursive: true });
    writeFileSync(join(ark, 'src', 'refund.ts'), ARK_SOURCE);
    writeFileSync(join(ark, 'tsconfig.json'), JSON.stringify(ARK_TSCONFIG, null, 2));
    // Two folders, each with its own outputs: their four programs run side by side.
    await Promise.all([
      (async () => {
        await check('standard: toolsmith schema', 'npx toolsmith schema', standard);
        await check('standard: ts7 build', 'npx tsc -p tsconfig.json', standard);
      })(),
      (async () => {
        await check('arktype: ts7, module node16', 'npx tsc -p tsconfig.json --module node16 --noEmit', ark);
        await check('arktype: ts7 build, module node20', 'npx tsc -p tsconfig.json', ark);
      })(),
    ]);
    for (const name of ['tsx', 'vitest']) installed[name] = (JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

    for (const [name, version] of await latestVersions) {
      latest[name] = version;
      installed[name] = (JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    }

    // TypeScript 5.9 on the same app: the documented tsconfig (with skipLibCheck false), and commonjs with
    // moduleResolution node (NestJS's default); the app's jest test on the first.
    checks.set('ts5 install', await sh('npm install --save-dev typescript@~5.9.3', app, env));
    installed['typescript 5'] = (JSON.parse(readFileSync(join(app, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version;
    for (const [outDir, overrides] of Object.entries(TS5_COMPILES)) {
      writeFileSync(join(app, `tsconfig.${outDir}.json`), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { ...overrides, outDir } }));
    }
    // The drift fixture inside the app (not in its sources), so that it resolves the installed @toolsmith/core and class-validator.
    cpSync(join(__dirname, '__fixtures__', 'drift-project'), join(app, 'drift'), { recursive: true });
    // Each program writes its own output folder: two chains side by side, the longest (skipLibCheck false) alone.
    await Promise.all([
      (async () => {
        await check('dist-ts5 build', 'npx tsc -p tsconfig.dist-ts5.json', app);
        await check('ts5 jest', 'npx jest --ci --roots "<rootDir>/dist-ts5"', app);
      })(),
      (async () => {
        await check('dist-ts5-node build', 'npx tsc -p tsconfig.dist-ts5-node.json', app);
        await check('arktype: ts5, module node20', 'npx tsc -p tsconfig.json --noEmit', ark);
        await check('standard: ts5 build', 'npx tsc -p tsconfig.json --outDir dist-ts5', standard);
        // The installed CLI's two checks (each one more TypeScript program of the app).
        await check('schema --check', 'npx toolsmith schema --check --quiet', app);
        await check('schema --check, drift', 'npx toolsmith schema --check --quiet --project drift/tsconfig.json', app);
      })(),
    ]);
  }, 900_000);

  afterAll(async () => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("installs today's TypeScript and jest from npm's registry, not the monorepo's pins", () => {
    expect(installed.typescript).toBe(latest.typescript);
    expect(installed.jest).toBe(latest.jest);
    expect(installed['typescript 5']).toMatch(/^5\.9\./);
  });

  it('compares the output the guide shows for the schema and for the offline run', () => {
    const shown = guideCommands.filter(({ output }) => output !== undefined).map(({ command }) => command);
    expect(shown).toEqual(['npx tsc && npx toolsmith schema --print', 'npx tsc && node dist/main.js']);
  });

  it.each(guideCommands.filter(({ command }) => command !== SERVE_COMMAND && command !== PROVIDER_COMMAND).map(({ command, output }) => [command, output]))(
    'runs `%s` as the guide shows it',
    (command, output) => {
      const ran = walked.get(command);
      expectSuccess(ran);
      if (output !== undefined) expect(ran?.stdout).toBe(output);
    },
  );

  it('shows the error event of a provider it cannot reach, and exits non-zero', async () => {
    expect(guideCommands.map(({ command }) => command)).toContain(PROVIDER_COMMAND);
    // A key is set; the network is a closed loopback port (no test reaches a real provider).
    const ran = await sh(PROVIDER_COMMAND, app, userEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^error PROVIDER_CONNECTION_FAILED: /m);
    expect(ran.stdout).not.toContain('agent');
  });

  it.each(['install', 'ts7 build, skipLibCheck false', 'ts5 install', ...Object.keys(TS5_COMPILES).map((outDir) => `${outDir} build`), 'ts5 jest'])(
    'passes the check %s',
    (name) => expectSuccess(checks.get(name)),
  );

  it.each(Object.keys(TS5_COMPILES))('runs offline on ScriptedModel, compiled by TypeScript 5.9 into %s', async (outDir) => {
    const shown = guideCommands.find(({ command }) => command === 'npx tsc && node dist/main.js')?.output;
    expect(shown).toContain('agent ');
    const ran = await sh(`node ${outDir}/main.js`, app, userEnv());
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(shown);
  });

  it.each(['dist', 'dist-ts5-node'])('answers with a manifestType<Summary> object, checked against the schema from the manifest (%s)', async (outDir) => {
    const manifest = JSON.parse(readFileSync(join(app, 'toolsmith.schema.json'), 'utf8')) as { types?: Record<string, { source: string; schema: unknown }> };
    expect(manifest.types?.Summary).toMatchObject({ source: 'src/summary.ts', schema: { type: 'object', properties: { open: { type: 'number', description: 'Tasks still open' } } } });
    const ran = await sh(`node ${outDir}/summary.js`, app, userEnv());
    expect(ran.stdout.trim().split('\n')).toEqual(['event OUTPUT_INVALID', 'summary {"open":1,"titles":["Buy milk"]}']);
  });

  it.each(['dist', 'dist-ts5-node'])('runs a zod toolset: zod judges the arguments, in its words, and the tools get its output (%s)', async (outDir) => {
    const ran = await sh(`node ${outDir}/zod-tools.js`, app, userEnv());
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
    expect(ran.stdout.trim().split('\n')).toEqual([
      'result refund Invalid arguments: orderId: Invalid string: must match pattern /^A-\\d{4}$/.',
      'result refund {"refunded":5,"orderId":"A-1001"}',
      'result look_up {"orderId":"A-1001","status":"open"}',
      'agent Refunded.',
      'declared [' +
        '{"type":"object","properties":{"orderId":{"type":"string","pattern":"^A-\\\\d{4}$"},"amount":{"type":"number","exclusiveMinimum":0}},"required":["orderId","amount"]},' +
        '{"type":"object","properties":{"orderId":{"type":"string"}},"required":["orderId"]}]',
    ]);
  });

  describe('arktype, which ships only ES modules, in a CommonJS project', () => {
    it('stops with TS1479 under module node16 (TypeScript 7)', () => {
      const ran = checks.get('arktype: ts7, module node16');
      expect(ran?.code).not.toBe(0);
      expect(ran?.stdout).toMatch(/^src\/refund\.ts\(\d+,\d+\): error TS1479: The current file is a CommonJS module whose imports will produce 'require' calls; however, the referenced file is an ECMAScript module and cannot be imported with 'require'\./m);
    });

    it.each(['arktype: ts7 build, module node20', 'arktype: ts5, module node20'])('passes the check %s', (name) => expectSuccess(checks.get(name)));

    it('runs the tool compiled under module node20: require() loads arktype, which judges the arguments', async () => {
      const ran = await sh('node dist/refund.js', join(app, 'ark'), userEnv());
      expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
      expect(ran.stdout.trim().split('\n')).toEqual([
        'result {"error":{"code":"INVALID_ARGUMENTS","message":"Invalid arguments: amount: must be positive (was -5)."}}',
        'result {"refunded":5,"orderId":"A-1001"}',
        'agent Refunded.',
        'declared [{"type":"object","properties":{"amount":{"type":"number","exclusiveMinimum":0},"orderId":{"type":"string"}},"required":["amount","orderId"]}]',
      ]);
    });
  });

  describe('a toolset compiled with standard decorators (examples/standard-decorators)', () => {
    const conversationEnd = ['approve orders_cancelOrder: Cancel this order?', 'result orders_cancelOrder cancelled', 'agent Order A-1001 is cancelled.'];

    it.each(['standard: install tsx, vitest, esbuild', 'standard: toolsmith schema', 'standard: ts7 build', 'standard: ts5 build'])('passes the check %s', (name) => expectSuccess(checks.get(name)));

    it.each(['dist', 'dist-ts5'])('runs through the runner, compiled by tsc into %s', async (outDir) => {
      const ran = await sh(`node ${outDir}/main.js`, join(app, 'standard'), userEnv());
      expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
      expect(ran.stdout.trim().split('\n').slice(-3)).toEqual(conversationEnd);
    });

    it('runs the same from its sources through tsx', async () => {
      const ran = await sh('npx tsx src/main.ts', join(app, 'standard'), userEnv());
      const built = await sh('node dist/main.js', join(app, 'standard'), userEnv());
      expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
      expect(ran.stdout).toBe(built.stdout);
    });

    it("passes its spec under today's vitest, with the config that lowers the decorators", async () => {
      const ran = await sh('npx vitest run', join(app, 'standard'), userEnv({ NO_COLOR: '1' }));
      expect({ vitest: installed.vitest, code: ran.code, output: ran.code === 0 ? '' : ran.stdout + ran.stderr }).toEqual({ vitest: installed.vitest, code: 0, output: '' });
      expect(ran.stdout).toMatch(/Tests\s+4 passed \(4\)/);
    });
  });

  it('packs every package without tests or fixtures', () => {
    expect([...tarballs.keys()].sort()).toEqual([...PACKAGES].sort());
    for (const [name, tarball] of tarballs) {
      const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout;
      expect({ name, license: listing.includes('package/LICENSE'), readme: listing.includes('package/README.md') }).toEqual({ name, license: true, readme: true });
      expect({ name, unwanted: listing.split('\n').filter((file) => /\.test\.|__fixtures__|tsbuildinfo|page-types|^package\/src\//.test(file)) }).toEqual({ name, unwanted: [] });
    }
    expect(spawnSync('tar', ['-tzf', tarballs.get('core')!], { encoding: 'utf8' }).stdout).toContain('package/dist/testing/index.d.ts');
    // The dev UI's page, built by the root `npm run build` (packed with --ignore-scripts, devtools' prepack does not run): without it `toolsmith web` serves a blank page.
    const devtools = spawnSync('tar', ['-tzf', tarballs.get('devtools')!], { encoding: 'utf8' }).stdout.split('\n');
    expect(devtools.filter((file) => file.startsWith('package/dist/page/')).sort()).toEqual(['package/dist/page/app.css', 'package/dist/page/app.js']);
  });

  it('installs copies (not links), with one class-validator, class-transformer and reflect-metadata', async () => {
    expectSuccess(await sh('npm ls class-validator class-transformer reflect-metadata @toolsmith/core', app, userEnv()));
    const ls = (await sh('npm ls --all --parseable class-transformer', app, userEnv())).stdout.trim().split('\n');
    expect(ls).toEqual([join(app, 'node_modules', 'class-transformer')]);
    expect(readdirSync(join(app, 'node_modules', '@toolsmith')).sort()).toEqual([...PACKAGES].sort());
  });

  it.each(PACKAGES)('loads @toolsmith/%s from its tarball through its entry points', async (name) => {
    const subpaths = name === 'core' ? ['', '/testing', '/adapter-kit', '/internal'] : [''];
    const script = subpaths.map((subpath) => `require('@toolsmith/${name}${subpath}');`).join('');
    expectSuccess(await sh(`node -e "${script}"`, app, userEnv()));
    // A copy inside the app, not a link back into the monorepo.
    expect(realpathSync(join(app, 'node_modules', '@toolsmith', name))).toBe(join(realpathSync(app), 'node_modules', '@toolsmith', name));
  });

  it('finds the manifest up to date with toolsmith schema --check', () => {
    const ran = checks.get('schema --check');
    expect(ran?.code).toBe(0);
    expect(ran?.stderr).toContain('toolsmith.schema.json is up to date');
  });

  it('reports each kind of drift with toolsmith schema --check, from the installed CLI', () => {
    const ran = checks.get('schema --check, drift')!;
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('8 places where a type and what the runtime is told about it disagree:');
    for (const drift of [
      /drift\/src\/order-tools\.ts:\d+:\d+: OrderTools\.list, parameter status: its type is Status, but @Param\('status'\) gives no enum/,
      /drift\/src\/order-tools\.ts:\d+:\d+: OrderTools\.count, parameter status: @Param\('status'\) allows "cancelled" in its enum/,
      /drift\/src\/order-tools\.ts:\d+:\d+: OrderTools\.get, parameter id: its schema allows type string, but its type is number/,
      /drift\/src\/order-tools\.ts:\d+:\d+: SearchDto\.note has no class-validator decorator/,
      /drift\/src\/order-tools\.ts:\d+:\d+: Line\.quantity has no class-validator decorator/,
      /drift\/src\/order-tools\.ts:\d+:\d+: SearchDto\.limit is @IsOptional\(\), which lets null through/,
      /drift\/src\/order-tools\.ts:\d+:\d+: constructor parameter orders of OrderTools is typed OrderRepository, imported with `import type`/,
      /drift\/src\/order-tools\.ts:\d+:\d+: constructor parameter clock of Auditor is typed Clock, an interface/,
    ]) expect(ran.stderr).toMatch(drift);
    expect(ran.stderr.match(/\n    Fix: /g)).toHaveLength(8);
  });

  it(`serves the tools over MCP with the guide's \`${SERVE_COMMAND}\` to the official MCP client`, async () => {
    expect(guideCommands.map(({ command }) => command)).toContain(SERVE_COMMAND);
    const [command, ...args] = SERVE_COMMAND.split(' ');
    const client = new Client({ name: 'real-install-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args, cwd: app, env: userEnv(), stderr: 'ignore' }));
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
