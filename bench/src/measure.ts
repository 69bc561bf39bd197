import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Nanoseconds per call of `fn`, as the median of `rounds` rounds of `iterations` awaited calls,
 * after one warm-up round (so the JIT has settled and lazy work such as ajv compiles is done).
 */
export async function nsPerCall(fn: () => unknown, iterations: number, rounds: number): Promise<number> {
  const round = async () => {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    return ((performance.now() - start) * 1e6) / iterations;
  };
  await round();
  const results: number[] = [];
  for (let r = 0; r < rounds; r++) results.push(await round());
  return median(results);
}

/**
 * Nanoseconds per call of several paths, measured in alternation (A, B, C, A, B, C, …) so that noise
 * from other processes hits every path alike. Returns each path's median and, per path, the median of
 * its per-round ratio to the first path (the baseline). `beforeBatch` runs, untimed, before each batch
 * (e.g. a full GC, so garbage one path leaves is not collected on the next path's time).
 */
export async function compare(
  paths: Readonly<Record<string, () => unknown>>,
  iterations: number,
  rounds: number,
  beforeBatch?: () => void,
): Promise<Record<string, { ns: number; ratio: number }>> {
  const names = Object.keys(paths);
  const once = async (fn: () => unknown) => {
    beforeBatch?.();
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    return ((performance.now() - start) * 1e6) / iterations;
  };
  for (const name of names) await once(paths[name]); // warm-up
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of names) samples[name].push(await once(paths[name]));
  }
  const baseline = samples[names[0]];
  return Object.fromEntries(
    names.map((n) => [n, { ns: median(samples[n]), ratio: median(samples[n].map((v, i) => v / baseline[i])) }]),
  );
}

/** Milliseconds `fn` takes, once. */
export function msOnce(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** A fixed-width table for the console. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}

/** `ok` / `MISSED` against a target. */
export function verdict(ok: boolean): string {
  return ok ? 'ok' : 'MISSED';
}

/** The engine's full garbage collection (`--expose-gc`'s `gc`, exposed here when Node was started without it). */
export function gcFunction(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  // Lets `node bench/dist/run-all.js` measure without `--expose-gc` on the command line.
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Bytes of heap in use after full collections: what is still reachable. */
export function heapUsed(gc: () => void): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}
