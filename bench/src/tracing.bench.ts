import 'reflect-metadata';
import { LlmAgent, Runner, type TracingOptions } from '@toolsmith/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { compare, table } from './measure';
import { scriptedModel, toolsmithTurn, tools } from './turn.bench';

/**
 * What OpenTelemetry tracing costs per turn (user message → one tool call → final answer, ScriptedModel):
 * with no tracer provider registered (the default: nothing is loaded or recorded), turned off explicitly,
 * and with an in-memory exporter recording the 5 spans of a turn (runner, agent, two model calls, the
 * tool call), without and with contents. Paths alternate per round; ratios are to the first.
 */
export async function main(): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const runnerWith = (tracing?: TracingOptions) =>
    new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model: scriptedModel(), instruction: 'You report the weather.', tools: tools(3) }), tracing });
  const off = runnerWith();
  const disabled = runnerWith({ enabled: false });
  const traced = runnerWith({ tracerProvider: provider });
  const withContent = runnerWith({ tracerProvider: provider, recordContent: true });
  let session = 0;
  // The exporter is emptied after each turn, so memory stays flat and every turn pays the same.
  const turn = (runner: Runner) => async () => {
    await toolsmithTurn(runner, `s${session++}`, 'Weather in Paris?');
    exporter.reset();
  };
  const results = await compare(
    {
      'no tracer provider (default)': turn(off),
      'tracing: { enabled: false }': turn(disabled),
      'in-memory exporter': turn(traced),
      'in-memory exporter + recordContent': turn(withContent),
    },
    1000,
    9,
    // Traced turns leave garbage (spans); collected before each batch, it is not billed to the next path.
    () => (globalThis as { gc?: () => void }).gc?.(),
  );
  await toolsmithTurn(traced, 'count', 'Weather in Paris?');
  const spans = exporter.getFinishedSpans().length;
  console.log(`Tracing cost per turn (${spans} spans per traced turn, median of 9 rounds of 1,000 turns):`);
  console.log(
    table([
      ['path', 'µs/turn', 'vs default'],
      ...Object.entries(results).map(([name, r]) => [name, (r.ns / 1000).toFixed(1), `${r.ratio.toFixed(3)}×`]),
    ]),
  );
}

if (require.main === module) void main();
