import 'reflect-metadata';
import { LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import Ajv2020 from 'ajv/dist/2020';
import { performance } from 'node:perf_hooks';
import { median } from './measure';

/**
 * W2: one model response with 16 calls of a tool that waits 5 ms, then a final answer. With default
 * options every call should start at once, so a turn takes about one tool call (5 ms), as in the
 * hand-written loop (Promise.all). Reports ms per turn and the ratio to the hand-written loop.
 */
const CALLS = 16;
const TOOL_MS = 5;
const TURNS = 40;

const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } as const;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const calls = Array.from({ length: CALLS }, (_, i) => ({ id: `c${i}`, name: 'slow', args: { n: i } }));

async function toolsmithTurnMs(maxConcurrentToolCalls?: number): Promise<number> {
  const slow = functionTool<{ n: number }>({ name: 'slow', description: 'Waits 5 ms.', parameters: schema, execute: async ({ n }) => (await wait(TOOL_MS), { n }) });
  const model = new ScriptedModel((request) => (request.contents.at(-1)?.parts[0]?.functionResponse ? 'done' : { calls }), { keepRequests: false });
  const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'bot', model, tools: [slow] }), ...(maxConcurrentToolCalls ? { maxConcurrentToolCalls } : {}) });
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const start = performance.now();
    for await (const event of runner.run({ userId: 'u', sessionId: `s${turn}`, newMessage: { role: 'user', parts: [{ text: 'go' }] } })) void event;
    times.push(performance.now() - start);
  }
  return median(times.slice(5));
}

async function handWrittenTurnMs(): Promise<number> {
  const validate = new Ajv2020().compile(schema);
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const start = performance.now();
    await Promise.all(calls.map(async (call) => (validate(call.args) ? (await wait(TOOL_MS), { n: call.args.n }) : { error: validate.errors })));
    times.push(performance.now() - start);
  }
  return median(times.slice(5));
}

export async function main(): Promise<void> {
  const hand = await handWrittenTurnMs();
  const defaults = await toolsmithTurnMs();
  const capped = await toolsmithTurnMs(8);
  console.log(`W2: ${CALLS} parallel calls of a ${TOOL_MS} ms tool, then a final answer (median of ${TURNS - 5} turns)`);
  console.log(`  hand-written loop (Promise.all)         ${hand.toFixed(2)} ms`);
  console.log(`  Toolsmith, default options              ${defaults.toFixed(2)} ms   ${(defaults / hand).toFixed(2)}× the loop (target: one wave, ≤ 1.05×)`);
  console.log(`  Toolsmith, maxConcurrentToolCalls: 8    ${capped.toFixed(2)} ms   ${(capped / hand).toFixed(2)}× (two waves, for comparison)`);
}

if (require.main === module) void main();
