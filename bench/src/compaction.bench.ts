import 'reflect-metadata';
import { type CompactionOptions, DEFAULT_COMPACTION_PROMPT, type Event, LlmAgent, type LlmRequest, Runner, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { performance } from 'node:perf_hooks';
import { median } from './measure';

/** Turns of the conversation: each a question, one tool call with a ~1 KB result, and an answer. */
export const TURNS = 200;

/** What one configuration cost over the conversation. */
export interface CompactionBenchRow {
  /** `none`, `trim`, or `summarize`. */
  strategy: string;
  /** Characters of the last request of turn 200 (its contents and tools as JSON: what an adapter would send). */
  lastRequestChars: number;
  /** Mean characters per agent request over the whole conversation. */
  meanRequestChars: number;
  /** Median milliseconds per turn over the last 50 turns (the runner's own work: the model answers at once). */
  msPerTurnLate: number;
  /** Agent requests made, and summarizing requests made. */
  agentRequests: number;
  summaryRequests: number;
  /** Compaction events stored. */
  compactions: number;
}

const lookup = functionTool({
  name: 'lookupOrder',
  description: 'Looks an order up.',
  parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
  // A result of about 1 KB, like a real lookup's.
  execute: (args: { orderId: string }) => ({ orderId: args.orderId, status: 'shipped', lines: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${i}-${args.orderId}`, qty: i + 1, note: 'standard delivery, signed' })) }),
});

/** Runs the 200-turn conversation under `compaction` (none when undefined). */
export async function runConversation(strategy: string, compaction: CompactionOptions | undefined): Promise<CompactionBenchRow> {
  const sizes: number[] = [];
  let summaryRequests = 0;
  const size = (request: LlmRequest) => JSON.stringify({ system: request.systemInstruction, contents: request.contents, tools: request.tools }).length;
  const model = new ScriptedModel(
    (request) => {
      if (request.systemInstruction === DEFAULT_COMPACTION_PROMPT) {
        summaryRequests++;
        return 'The user asked about many orders; each was looked up and had shipped.';
      }
      sizes.push(size(request));
      const last = request.contents[request.contents.length - 1];
      const response = last.parts.find((p) => p.functionResponse)?.functionResponse;
      if (response) return `Order ${String((response.response as { orderId: string }).orderId)} has shipped.`;
      const orderId = /A-\d+/.exec(last.parts.map((p) => p.text ?? '').join(''))?.[0] ?? 'A-0';
      return { calls: [{ name: 'lookupOrder', args: { orderId } }] };
    },
    { keepRequests: false },
  );
  const agent = new LlmAgent({ name: 'desk', model, tools: [lookup], instruction: 'Help with orders.', ...(compaction ? { compaction } : {}) });
  const runner = new Runner({ appName: 'bench', agent });
  const times: number[] = [];
  let compactions = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    const start = performance.now();
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: `Where is order A-${turn}? I ordered it a while ago and I am still waiting for it.` }] } }) as AsyncIterable<Event>) {
      if (event.actions.compaction) compactions++;
    }
    times.push(performance.now() - start);
  }
  // The last request of the last turn is the one that carries the most history.
  return {
    strategy,
    lastRequestChars: sizes[sizes.length - 1],
    meanRequestChars: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
    msPerTurnLate: median(times.slice(-50)),
    agentRequests: sizes.length,
    summaryRequests,
    compactions,
  };
}

/** The three configurations, one after the other. */
export async function measureCompaction(): Promise<CompactionBenchRow[]> {
  return [
    await runConversation('none', undefined),
    await runConversation('trim (keepTurns 10)', { strategy: 'trim', keepTurns: 10 }),
    await runConversation('summarize (everyTurns 20, keepTurns 4)', { strategy: 'summarize', everyTurns: 20, keepTurns: 4 }),
  ];
}

export async function main(): Promise<void> {
  const rows = await measureCompaction();
  const [none] = rows;
  console.log(`${TURNS} turns, each: a question, one tool call with a ~1 KB result, an answer (ScriptedModel: the runner's work only).`);
  console.log('strategy                                  last request  mean request  ms/turn (last 50)  requests  summaries  compactions');
  for (const row of rows) {
    console.log(
      `${row.strategy.padEnd(40)}  ${String(row.lastRequestChars).padStart(12)}  ${String(row.meanRequestChars).padStart(12)}  ${row.msPerTurnLate.toFixed(2).padStart(17)}  ${String(row.agentRequests).padStart(8)}  ${String(row.summaryRequests).padStart(9)}  ${String(row.compactions).padStart(11)}`,
    );
  }
  for (const row of rows.slice(1)) {
    console.log(
      `${row.strategy}: last request ${(none.lastRequestChars / row.lastRequestChars).toFixed(1)}x smaller, mean request ${(none.meanRequestChars / row.meanRequestChars).toFixed(1)}x smaller, ` +
        `time per late turn ${(row.msPerTurnLate / none.msPerTurnLate).toFixed(2)}x of none`,
    );
  }
}
