import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { median } from './measure';

/**
 * Cold import of each package in a fresh Node process, next to a bare `node` start and the imports of
 * `ajv` and the Vercel AI SDK (`ai`): wall time (median of several processes, so the ratios mean more
 * than the absolute times on a shared machine) and how many modules each loads.
 */
const RUNS = 7;
const packagesDir = join(__dirname, '..', '..', 'packages');

const targets: Array<[string, string | undefined]> = [
  ['node (no import)', undefined],
  ['ajv/dist/2020', require.resolve('ajv/dist/2020')],
  ['ai (Vercel AI SDK)', safeResolve('ai')],
  ...['core', 'openai', 'anthropic', 'gemini', 'mcp', 'nestjs'].map((name): [string, string] => [`@toolsmith/${name}`, join(packagesDir, name, 'dist', 'index.js')]),
  // The `toolsmith` command's entry (bin → main): each subcommand loads its own dependencies when it runs.
  ['toolsmith (command)', join(packagesDir, 'cli', 'dist', 'main.js')],
];

function safeResolve(name: string): string | undefined {
  try {
    return require.resolve(name);
  } catch {
    return undefined;
  }
}

function measure(path: string | undefined): { ms: number; modules: number } {
  const script = path
    ? `const t=process.hrtime.bigint();require(${JSON.stringify(path)});const ms=Number(process.hrtime.bigint()-t)/1e6;console.log(JSON.stringify({ms,modules:Object.keys(require.cache).length}))`
    : `console.log(JSON.stringify({ms:0,modules:0}))`;
  const wall: number[] = [];
  let inProcess: { ms: number; modules: number } = { ms: 0, modules: 0 };
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    const child = spawnSync(process.execPath, ['-e', script], { cwd: path ? dirname(path) : __dirname, encoding: 'utf8' });
    wall.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (child.status !== 0) throw new Error(`importing ${path} failed: ${child.stderr}`);
    inProcess = JSON.parse(child.stdout) as { ms: number; modules: number };
  }
  return { ms: median(wall), modules: inProcess.modules };
}

export async function main(): Promise<void> {
  const results = targets.filter(([, path]) => path !== null).map(([name, path]) => ({ name, ...measure(path) }));
  const bare = results[0].ms;
  const ajv = results[1].ms;
  console.log(`Cold import in a fresh process (median of ${RUNS} processes; ratios to a bare node start and to importing ajv)`);
  console.log('what'.padEnd(24) + 'modules'.padStart(8) + 'process ms'.padStart(12) + '× node'.padStart(9) + '× ajv'.padStart(8));
  for (const r of results) {
    console.log(r.name.padEnd(24) + String(r.modules).padStart(8) + r.ms.toFixed(0).padStart(12) + (r.ms / bare).toFixed(2).padStart(9) + (r.ms / ajv).toFixed(2).padStart(8));
  }
}

if (require.main === module) void main();
