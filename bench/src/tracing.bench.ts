import 'reflect-metadata';
import { LlmAgent, Runner, type TracingOptions } from '@toolsmith/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { compare, table } from './measure';
import { scriptedModel, toolsmithTurn, tools } from './turn.bench';

/**
 * What OpenTelemetry tracing costs per turn (user message → one tool call → final answer, ScriptedModel).
 * Two comparisons, each alternating its paths round by round: tracing off (no tracer provider, the
 * default, against `enabled: false`), and tracing on (an in-memory exporter recording the turn's 5 spans,
 * without and with contents) against the default. They are measured apart because traced turns leave
 * garbage that would be collected on the time of whichever untraced path runs next.
 */
export async function main(): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const runnerWith = (tracing?: TracingOptions) =>
    new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model: scriptedModel(), instruction: 'You report the weather.', tools: tools(3) }), tracing });
  let session = 0;
  // The exporter is emptied after each turn, so memory stays flat and every turn pays the same.
  const turn = (runner: Runner) => async () => {
    await toolsmithTurn(runner, `s${session++}`, 'Weather in Paris?');
    exporter.reset();
  };
  const untraced = turn(runnerWith());
  const off = await compare({ 'no tracer provider (default)': untraced, 'tracing: { enabled: false }': turn(runnerWith({ enabled: false })) }, 1000, 9);
  const on = await compare(
    {
      'no tracer provider (default)': untraced,
      'in-memory exporter': turn(runnerWith({ tracerProvider: provider })),
      'in-memory exporter + recordContent': turn(runnerWith({ tracerProvider: provider, recordContent: true })),
    },
    1000,
    9,
  );
  const rows = (results: Record<string, { ns: number; ratio: number }>) =>
    Object.entries(results).map(([name, r]) => [name, (r.ns / 1000).toFixed(1), `${r.ratio.toFixed(3)}×`]);
  console.log('Tracing cost per turn (median of 9 rounds of 1,000 turns; ratios to the first row of each table):');
  console.log(table([['tracing off', 'µs/turn', 'ratio'], ...rows(off)]));
  console.log(table([['tracing on (5 spans a turn)', 'µs/turn', 'ratio'], ...rows(on)]));
}

if (require.main === module) void main();
