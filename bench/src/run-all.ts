import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs every benchmark of this folder (`npm run bench`). A benchmark is a file `src/<name>.bench.ts`
 * that exports `main(): void | Promise<void>` and prints its own report; add a file and it is picked
 * up. Each runs in its own Node process, so one benchmark's JIT state, caches and heap do not color
 * another's (startup numbers in particular must be cold). Benchmarks are never timed tests.
 */
function runAll(): void {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
    .sort();
  let failed = 0;
  for (const file of files) {
    console.log(`\n=== ${file.replace(/\.js$/, '')} ===`);
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '-e', `Promise.resolve(require(${JSON.stringify(join(__dirname, file))}).main()).catch((e) => { console.error(e); process.exit(1); })`],
      { stdio: 'inherit' },
    );
    if (child.status !== 0) {
      failed++;
      console.error(`${file} failed (exit ${child.status})`);
    }
  }
  if (failed) process.exitCode = 1;
}

runAll();
