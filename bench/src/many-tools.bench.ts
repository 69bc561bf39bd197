import 'reflect-metadata';
import { LlmAgent, Runner, functionTool } from '@toolsmith/core';
import type { BaseTool, LlmRequest } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { performance } from 'node:perf_hooks';
import { median } from './measure';

/**
 * W4: 500 `functionTool({ parameters: JSON Schema })` tools on one LlmAgent, the model calling one of
 * them per turn, a fresh session per turn. Per-turn cost must stay flat in the number of tools (≤ 1.2×
 * the same turn with 3 tools); building the agent and reaching the first model request is timed too.
 * Then the heap after 20,000 turns (sessions deleted after each), against after 2,000: it must not grow.
 */
const TURNS = 2_000;
const ROUNDS = 7;

function makeTools(count: number): BaseTool[] {
  return Array.from({ length: count }, (_, i) =>
    functionTool<{ city: string; days?: number }>({
      name: `tool_${i}`,
      description: `Forecast variant ${i}.`,
      parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'], additionalProperties: false },
      execute: ({ city }) => ({ city, forecast: 'sunny' }),
    }),
  );
}

function model(onRequest?: (request: LlmRequest) => void): ScriptedModel {
  return new ScriptedModel(
    (request) => {
      onRequest?.(request);
      return request.contents.at(-1)?.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'tool_7', args: { city: 'Paris' } }] };
    },
    { keepRequests: false },
  );
}

async function turnUs(runner: Runner, sessions: { n: number }): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < TURNS; i++) {
    const sessionId = `s${sessions.n++}`;
    for await (const event of runner.run({ userId: 'u', sessionId, newMessage: { role: 'user', parts: [{ text: 'go' }] } })) void event;
    await runner.sessionService.deleteSession({ appName: 'bench', userId: 'u', sessionId });
  }
  return ((performance.now() - start) * 1000) / TURNS;
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

export async function main(): Promise<void> {
  // Build → first model request, with 500 tools (tools, agent and runner made from scratch).
  const buildStart = performance.now();
  let firstRequestMs = 0;
  const firstRunner = new Runner({
    appName: 'bench',
    agent: new LlmAgent({ name: 'agent', model: model(() => (firstRequestMs ||= performance.now() - buildStart)), tools: makeTools(500) }),
  });
  for await (const event of firstRunner.run({ userId: 'u', sessionId: 'first', newMessage: { role: 'user', parts: [{ text: 'go' }] } })) void event;

  const few = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model: model(), tools: makeTools(3) }) });
  const many = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model: model(), tools: makeTools(500) }) });
  const sessions = { n: 0 };
  await turnUs(few, sessions);
  await turnUs(many, sessions);
  const ratios: number[] = [];
  const fewUs: number[] = [];
  const manyUs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a = await turnUs(few, sessions);
    const b = await turnUs(many, sessions);
    fewUs.push(a);
    manyUs.push(b);
    ratios.push(b / a);
  }

  const heapAt2k = heapMb();
  for (let i = 0; i < 9; i++) await turnUs(many, sessions); // 18,000 more turns
  const heapAt20k = heapMb();

  console.log('W4: 500 functionTool tools, one called per turn, fresh session per turn');
  console.log(`  build → first model request (500 tools)   ${firstRequestMs.toFixed(1)} ms (target ≤ 10)`);
  console.log(`  turn, 3 tools                             ${median(fewUs).toFixed(1)} µs`);
  console.log(`  turn, 500 tools                           ${median(manyUs).toFixed(1)} µs   ${median(ratios).toFixed(2)}× the 3-tool turn (target ≤ 1.2×)`);
  console.log(`  heap after 2,000 / 20,000 turns           ${heapAt2k.toFixed(1)} / ${heapAt20k.toFixed(1)} MB (${(heapAt20k / heapAt2k).toFixed(2)}×; flat means no per-turn leak)`);
}

if (require.main === module) void main();
