import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { functionTool } from '../function-tool/function-tool';
import { executeToolCall } from '../internal/tool-executor';
import type { JsonSchema } from '../model/json-schema';
import { mayRepair, repairArguments } from './argument-repair';
import { parseArguments } from './argument-parser';
import { validatorFor } from './schema-validator';
import { testToolContext } from '../testing/test-tool-context';

// The argument repair corpus (__fixtures__/argument-repair-corpus): what models get wrong, valid controls
// that must pass untouched, and near-misses that must be refused at the right paths. Each case goes
// through the executor exactly as a runner's call would. `npm run bench` reports the same corpus as shares.
interface CorpusCase {
  name: string;
  tool: string;
  raw: Record<string, unknown> | string;
  expect:
    | { outcome: 'valid' }
    | { outcome: 'repaired'; args: Record<string, unknown>; repairs: string[] }
    | { outcome: 'refused'; code: string; paths: string[] };
}

const dir = join(__dirname, '__fixtures__', 'argument-repair-corpus');
const { tools } = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8')) as { tools: Record<string, JsonSchema> };
const files = readdirSync(dir).filter((file) => file.endsWith('.json') && file !== 'tools.json');
const cases = files.flatMap((file) =>
  (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { cases: CorpusCase[] }).cases.map((c) => ({ ...c, file })),
);

async function run(c: CorpusCase) {
  const seen: Array<Record<string, unknown>> = [];
  const tool = functionTool({ name: c.tool, description: c.tool, parameters: tools[c.tool], execute: (args: Record<string, unknown>) => (seen.push(args), 'ok') });
  const outcome = await executeToolCall({ call: { id: 'c1', name: c.tool, args: c.raw }, tool, availableToolNames: () => [c.tool], context: testToolContext({ functionCallId: 'c1' }) });
  return { outcome, seen };
}

describe('argument repair corpus', () => {
  it('holds at least 200 cases, every kind represented', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const kinds = new Set(cases.map((c) => c.expect.outcome));
    expect([...kinds].sort()).toEqual(['refused', 'repaired', 'valid']);
  });

  it('skips the repair walk (mayRepair false) only for arguments the walk finds nothing to repair in', () => {
    let skipped = 0;
    for (const c of cases) {
      let args: Record<string, unknown>;
      try {
        args = parseArguments(c.tool, c.raw);
      } catch {
        continue; // text repairs: before validation, not gated
      }
      const validate = validatorFor(tools[c.tool]);
      if (validate(args) || mayRepair(validate.errors, args)) continue;
      skipped++;
      expect([c.name, repairArguments(args, tools[c.tool])]).toEqual([c.name, undefined]);
    }
    expect(skipped).toBeGreaterThan(10);
  });

  it.each(cases.map((c) => [`${c.file}: ${c.name}`, c] as const))('%s', async (_name, c) => {
    const { outcome, seen } = await run(c);
    const expected = c.expect;
    if (expected.outcome === 'valid') {
      expect(outcome.error).toBeUndefined();
      expect(outcome.response.argumentRepairs).toBeUndefined();
      expect(seen).toEqual([typeof c.raw === 'string' ? JSON.parse(c.raw) : c.raw]);
    } else if (expected.outcome === 'repaired') {
      expect(outcome.error).toBeUndefined();
      expect(seen).toEqual([expected.args]);
      expect((outcome.response.argumentRepairs ?? []).map((r) => r.repair).sort()).toEqual(expected.repairs);
    } else {
      expect(seen).toEqual([]);
      expect(outcome.error?.code).toBe(expected.code);
      const problems = (outcome.error?.details as { problems?: Array<{ path: string }> } | undefined)?.problems ?? [];
      expect([...new Set(problems.map((p) => p.path))].sort()).toEqual(expected.paths);
    }
  });
});
