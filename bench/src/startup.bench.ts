import 'reflect-metadata';
import { Container, Param, Tool, ToolContext, Toolset, createClassTools, State } from '@toolsmith/core';
import { createEventActions } from '@toolsmith/core/internal';
import type { BaseTool } from '@toolsmith/core';
import { asSchema } from '@ai-sdk/provider-utils';
import { tool as aiTool } from 'ai';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
// The executor is internal (not in index.ts); the first call of a tool is measured through it.
import { executeToolCall } from '../../packages/core/dist/internal/tool-executor';
import { median, table, verdict } from './measure';

const TOOLS = 500;
const PER_CLASS = 10;
const ROUNDS = 5;
const TYPES = [String, Number, Boolean] as const;

/** Milliseconds of each startup step for 500 tools with 3–5 parameters each. */
export interface StartupBenchResult {
  /** Class definition: decorators recording metadata, as at module load. Cold (first round), then warm median. */
  defineMs: { cold: number; warm: number };
  /** Scanning into tools ready to call (schemas built, binders precomputed, no ajv compile). */
  scanMs: { cold: number; warm: number };
  /** What compiling all 500 validators eagerly would cost instead (why Toolsmith compiles lazily). */
  eagerCompileMs: number;
  /** Extra cost of a tool's first call (its ajv compile), median and worst over 50 tools. */
  firstCallMs: { median: number; p95: number; max: number };
  /** Vercel AI SDK: 500 tool() with zod schemas plus their JSON Schemas, as prepared for a request. */
  aiSdkMs: { cold: number; warm: number };
}

/** Defines 500 tools on 50 @Toolset classes exactly as compiled TypeScript does (decorators + design:paramtypes). */
function defineToolClasses(round: number): Function[] {
  const classes: Function[] = [];
  for (let c = 0; c < TOOLS / PER_CLASS; c++) {
    const cls = class {} as unknown as { prototype: Record<string, unknown>; name: string } & Function;
    Object.defineProperty(cls, 'name', { value: `Tools${round}_${c}` });
    for (let m = 0; m < PER_CLASS; m++) {
      const method = `tool${m}`;
      const count = 3 + ((c + m) % 3);
      cls.prototype[method] = function (...args: unknown[]) {
        return { args };
      };
      const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, method)!;
      const types = Array.from({ length: count }, (_, i) => TYPES[(m + i) % TYPES.length]);
      Reflect.defineMetadata('design:paramtypes', types, cls.prototype, method);
      for (let i = count - 1; i >= 0; i--) {
        const options = i === count - 1 ? { optional: true, description: `Parameter ${i}` } : { description: `Parameter ${i}` };
        Param(`p${i}`, types[i] === String && i === 0 ? { ...options, enum: ['a', 'b', 'c'] } : options)(cls.prototype, method, i);
      }
      Tool({ description: `Tool ${m} of class ${c}.` })(cls.prototype, method, descriptor);
    }
    Toolset({ prefix: `c${c}_` })(cls);
    classes.push(cls);
  }
  return classes;
}

function aiSdkTools(): unknown[] {
  const tools: unknown[] = [];
  for (let t = 0; t < TOOLS; t++) {
    const count = 3 + (t % 3);
    const shape: Record<string, z.ZodTypeAny> = {};
    for (let i = 0; i < count; i++) {
      const base = [z.string(), z.number(), z.boolean()][(t + i) % 3].describe(`Parameter ${i}`);
      shape[`p${i}`] = i === count - 1 ? base.optional() : base;
    }
    const created = aiTool({ description: `Tool ${t}.`, inputSchema: z.object(shape), execute: async (args: unknown) => args });
    tools.push(asSchema(created.inputSchema).jsonSchema);
  }
  return tools;
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

function toolContext(): ToolContext {
  const actions = createEventActions();
  return new ToolContext({
    functionCallId: 'call-1', invocationId: 'inv', agentName: 'bench', appName: 'bench', userId: 'u', sessionId: 's',
    state: new State({}, actions.stateDelta), actions,
  });
}

/** Runs the startup benchmark; every round defines fresh classes, so no scan cache is reused. */
export async function runStartupBench(rounds = ROUNDS): Promise<StartupBenchResult> {
  const define: number[] = [];
  const scan: number[] = [];
  const ai: number[] = [];
  let lastTools: BaseTool[] = [];
  for (let round = 0; round < rounds; round++) {
    let classes: Function[] = [];
    define.push(time(() => (classes = defineToolClasses(round))));
    scan.push(
      time(() => {
        const container = new Container();
        lastTools = classes.flatMap((cls) => createClassTools(cls, { container }));
      }),
    );
    ai.push(time(() => aiSdkTools()));
  }
  if (lastTools.length !== TOOLS) throw new Error(`expected ${TOOLS} tools, got ${lastTools.length}`);

  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  const eagerCompileMs = time(() => lastTools.forEach((t) => ajv.compile(t.parameters)));

  // First call of 50 fresh tools (lazy compile) minus the cost of a warm call of the same tool. A tool is
  // first called after a model answered, so the event loop has turned since startup: let it turn once.
  await new Promise((resolve) => setTimeout(resolve, 1));
  // Collect the rounds' garbage first, so a major GC does not land inside one tool's first call.
  (globalThis as { gc?: () => void }).gc?.();
  const context = toolContext();
  const firstCall: number[] = [];
  for (const tool of lastTools.slice(0, 50)) {
    const properties = Object.keys(tool.parameters.properties as object);
    const args = Object.fromEntries(properties.map((p) => [p, p === 'p0' ? 'a' : undefined]));
    const call = () => executeToolCall({ call: { id: 'c', name: tool.name, args }, tool, availableToolNames: () => [], context });
    const first = performance.now();
    await call();
    const firstMs = performance.now() - first;
    const warm = performance.now();
    await call();
    firstCall.push(firstMs - (performance.now() - warm));
  }
  return {
    defineMs: { cold: define[0], warm: median(define.slice(1)) },
    scanMs: { cold: scan[0], warm: median(scan.slice(1)) },
    eagerCompileMs,
    firstCallMs: { median: median(firstCall), p95: [...firstCall].sort((a, b) => a - b)[Math.floor(firstCall.length * 0.95)], max: Math.max(...firstCall) },
    aiSdkMs: { cold: ai[0], warm: median(ai.slice(1)) },
  };
}

/** Prints the startup table against the targets. */
export async function main(): Promise<void> {
  const r = await runStartupBench();
  const readyCold = r.defineMs.cold + r.scanMs.cold;
  const readyWarm = r.defineMs.warm + r.scanMs.warm;
  const ms = (n: number) => n.toFixed(1);
  console.log(`Startup: ${TOOLS} tools with 3–5 parameters each (${TOOLS / PER_CLASS} @Toolset classes; cold = first round, warm = median of ${ROUNDS - 1})`);
  console.log(
    table([
      ['step', 'cold ms', 'warm ms', 'target'],
      ['define classes (decorators record metadata)', ms(r.defineMs.cold), ms(r.defineMs.warm), ''],
      ['scan + createClassTools (schemas, binders)', ms(r.scanMs.cold), ms(r.scanMs.warm), ''],
      ['Toolsmith: 500 tools ready', ms(readyCold), ms(readyWarm), `< 50  ${verdict(readyCold < 50)}`],
      ['(eager ajv compile of all 500, avoided)', ms(r.eagerCompileMs), '', ''],
      ['peer: Vercel AI SDK 500 × tool(zod) + JSON Schema', ms(r.aiSdkMs.cold), ms(r.aiSdkMs.warm), ''],
    ]),
  );
  console.log(
    `First call of a tool pays its lazy ajv compile: median ${r.firstCallMs.median.toFixed(2)} ms, p95 ${r.firstCallMs.p95.toFixed(2)} ms, worst ${r.firstCallMs.max.toFixed(2)} ms ` +
      `(target ≤ 2 ms: median ${verdict(r.firstCallMs.median <= 2)}, p95 ${verdict(r.firstCallMs.p95 <= 2)}; single-shot times include garbage collection ` +
      `and preemption on a busy machine: load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs). Ratios: AI SDK / Toolsmith ready = ${(r.aiSdkMs.cold / readyCold).toFixed(1)}× cold, ` +
      `eager compile / Toolsmith ready = ${(r.eagerCompileMs / readyCold).toFixed(1)}×.`,
  );
}
