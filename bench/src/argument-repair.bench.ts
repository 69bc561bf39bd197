import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type JsonSchema, functionTool } from '@toolsmith/core';
import { testToolContext } from '@toolsmith/core/testing';
// The executor is internal (not in index.ts), so the benchmark reaches it in the build output, as tool-call.bench does.
import { executeToolCall } from '../../packages/core/dist/internal/tool-executor';
import { DEFAULT_TOOL_CALL_POLICY, type ToolCallPolicy } from '../../packages/core/dist/tools/tool-call-policy';
import { compare, table, verdict } from './measure';

// The argument repair corpus (packages/core/src/validation/__fixtures__/argument-repair-corpus, also run
// as a test) as shares: repaired without a round trip, refused at the right paths, false repairs; and
// the cost of having repair on for valid arguments, as a ratio to the same calls with repair off.
const CORPUS = join(__dirname, '..', '..', 'packages', 'core', 'src', 'validation', '__fixtures__', 'argument-repair-corpus');
const ITERATIONS = 50_000;
const ROUNDS = 7;

interface CorpusCase {
  name: string;
  tool: string;
  raw: Record<string, unknown> | string;
  expect: { outcome: 'valid' | 'repaired' | 'refused'; args?: Record<string, unknown>; paths?: string[] };
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
}

/** Runs every corpus case through the executor and counts the outcomes against the expectations. */
async function runCorpus() {
  const { tools } = JSON.parse(readFileSync(join(CORPUS, 'tools.json'), 'utf8')) as { tools: Record<string, JsonSchema> };
  const cases = readdirSync(CORPUS)
    .filter((file) => file.endsWith('.json') && file !== 'tools.json')
    .flatMap((file) => (JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as { cases: CorpusCase[] }).cases);
  const counts = { valid: 0, validUntouched: 0, repairable: 0, repaired: 0, refusable: 0, refusedAtPaths: 0, falseRepairs: 0, roundTripsBefore: 0 };
  for (const c of cases) {
    let ran: Record<string, unknown> | undefined;
    const tool = functionTool({ name: c.tool, description: c.tool, parameters: tools[c.tool], execute: (args: Record<string, unknown>) => ((ran = args), 'ok') });
    const outcome = await executeToolCall({ call: { id: 'c', name: c.tool, args: c.raw }, tool, availableToolNames: () => [c.tool], context: testToolContext() });
    const repairedAndRan = ran !== undefined && outcome.response.argumentRepairs !== undefined;
    const paths = [...new Set(((outcome.error?.details as { problems?: Array<{ path: string }> } | undefined)?.problems ?? []).map((p) => p.path))].sort();
    if (c.expect.outcome === 'valid') {
      counts.valid++;
      if (ran !== undefined && !outcome.response.argumentRepairs) counts.validUntouched++;
      if (repairedAndRan) counts.falseRepairs++;
    } else if (c.expect.outcome === 'repaired') {
      counts.repairable++;
      counts.roundTripsBefore++; // without repair, each of these costs the model another turn
      if (repairedAndRan && sameJson(ran, c.expect.args)) counts.repaired++;
      else if (repairedAndRan) counts.falseRepairs++;
    } else {
      counts.refusable++;
      if (ran === undefined && sameJson(paths, c.expect.paths ?? [])) counts.refusedAtPaths++;
      if (ran !== undefined) counts.falseRepairs++;
    }
  }
  return { total: cases.length, ...counts };
}

/** ns per call of valid arguments through the executor with repair on (the default) and off. */
async function repairCost() {
  const tool = functionTool({
    name: 'forecast',
    description: 'Weather forecast.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 }, metric: { type: 'boolean' }, unit: { enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'days', 'metric'],
      additionalProperties: false,
    },
    execute: (args: Record<string, unknown>) => args,
  });
  const text = '{"city":"Paris","days":3,"metric":true,"unit":"celsius"}';
  const context = testToolContext();
  const call = { id: 'call-1', name: 'forecast', args: text };
  const off = { ...DEFAULT_TOOL_CALL_POLICY, repairArguments: false };
  const viaExecutor = (policy: ToolCallPolicy) => () => executeToolCall({ call, tool, availableToolNames: () => ['forecast'], context, policy });
  return compare({ repairOff: viaExecutor(off), repairOn: viaExecutor(DEFAULT_TOOL_CALL_POLICY) }, ITERATIONS, ROUNDS, () => global.gc?.());
}

/** Prints the corpus shares and the cost of the repair step on valid arguments. */
export async function main(): Promise<void> {
  const corpus = await runCorpus();
  const share = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(1)}%)`;
  console.log(`Argument repair corpus: ${corpus.total} cases through executeToolCall`);
  console.log(
    table([
      ['measure', 'result', 'goal'],
      ['repaired without a round trip (of the repairable cases)', share(corpus.repaired, corpus.repairable), `all  ${verdict(corpus.repaired === corpus.repairable)}`],
      ['refused with the correct paths (of the near-misses)', share(corpus.refusedAtPaths, corpus.refusable), `all  ${verdict(corpus.refusedAtPaths === corpus.refusable)}`],
      ['valid controls passed untouched', share(corpus.validUntouched, corpus.valid), `all  ${verdict(corpus.validUntouched === corpus.valid)}`],
      ['false repairs', String(corpus.falseRepairs), `0  ${verdict(corpus.falseRepairs === 0)}`],
      ['model round trips saved', String(corpus.repaired), ''],
    ]),
  );
  const cost = await repairCost();
  console.log(`\nRepair step on valid arguments (${ITERATIONS} calls × ${ROUNDS} alternating rounds, medians)`);
  console.log(
    table([
      ['path', 'ns/call', 'ratio to repair off', 'goal'],
      ['executeToolCall, repair off', cost.repairOff.ns.toFixed(0), '1.00', ''],
      ['executeToolCall, repair on (default)', cost.repairOn.ns.toFixed(0), cost.repairOn.ratio.toFixed(3), `≤ 1.05  ${verdict(cost.repairOn.ratio <= 1.05)}`],
    ]),
  );
}
