import { performance } from 'node:perf_hooks';
import { getHeapSnapshot, setFlagsFromString } from 'node:v8';
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

/** The engine's garbage collection (`--expose-gc`'s `gc`, exposed here when Node was started without it): full, or with `{ type: 'minor' }` the young generation only. */
export function gcFunction(): (options?: { type: 'minor' | 'major' }) => void {
  const existing = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
  if (existing) return existing;
  // Lets `node bench/dist/run-all.js` measure without `--expose-gc` on the command line.
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
}

/** Bytes of heap in use after full collections: what is still reachable. */
export function heapUsed(gc: () => void): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Node types of a V8 heap snapshot that hold a program's values: objects, closures, their backing
 * arrays, strings, heap numbers, regular expressions, symbols and BigInts. Left out are V8's own: compiled
 * code and its metadata (`code`: bytecode, machine code, feedback, deoptimization data), hidden classes
 * (`object shape`) and internal lists (`hidden`, `synthetic`, `native`), which grow and shrink as the JIT
 * works whatever the program keeps.
 */
const VALUE_NODE_TYPES = new Set(['object', 'closure', 'array', 'string', 'concatenated string', 'sliced string', 'number', 'regexp', 'symbol', 'bigint']);

/**
 * Bytes held by the program's values that are still reachable (see {@link VALUE_NODE_TYPES}), read from
 * a heap snapshot (which collects garbage first). Unlike {@link heapUsed}, the JIT's code does not move it:
 * a difference between two readings is what the program itself kept. Takes about a second per 10 MB of heap.
 */
export async function reachableValueBytes(): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer);
  const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
  };
  const { node_fields: fields, node_types: nodeTypes } = snapshot.snapshot.meta;
  const typeNames = nodeTypes[0];
  const typeIndex = fields.indexOf('type');
  const sizeIndex = fields.indexOf('self_size');
  const { nodes } = snapshot;
  let bytes = 0;
  for (let i = 0; i < nodes.length; i += fields.length) if (VALUE_NODE_TYPES.has(typeNames[nodes[i + typeIndex]])) bytes += nodes[i + sizeIndex];
  return bytes;
}
