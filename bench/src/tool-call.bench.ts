import 'reflect-metadata';
import { Container, Param, Tool, Toolset, ToolContext, createClassTools, State } from '@toolsmith/core';
import { createEventActions } from '@toolsmith/core/internal';
import type { BaseTool } from '@toolsmith/core';
import { safeParseJSON } from '@ai-sdk/provider-utils';
import { tool as aiTool } from 'ai';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { z } from 'zod';
// The executor is what the runner calls for each function call; it is internal (not in index.ts),
// so the benchmark reaches it in the build output.
import { executeToolCall } from '../../packages/core/dist/internal/tool-executor';
import { compare, table, verdict } from './measure';

/** Median nanoseconds per call of each path, and its ratio to the matching hand-written loop. */
export interface ToolCallBenchResult {
  flat: Record<'handWritten' | 'toolsmith' | 'aiSdk', { ns: number; ratio: number }>;
  dto: Record<'handWritten' | 'toolsmith', { ns: number; ratio: number }>;
}

const ITERATIONS = 50_000;
const ROUNDS = 7;
const ARGS = '{"city":"Paris","days":3,"metric":true,"unit":"celsius"}';

function report(city: string, days: number, metric: boolean, unit?: string) {
  return { city, days, metric, unit };
}

class ForecastDto {
  @IsString() city!: string;
  @IsInt() @Min(1) days!: number;
  @IsBoolean() metric!: boolean;
  @IsOptional() @IsIn(['celsius', 'fahrenheit']) unit?: string;
}

@Toolset()
class WeatherTools {
  @Tool({ description: 'Weather forecast.' })
  forecast(
    @Param('city') city: string,
    @Param('days') days: number,
    @Param('metric') metric: boolean,
    @Param('unit', { enum: ['celsius', 'fahrenheit'], optional: true }) unit?: string,
  ) {
    return report(city, days, metric, unit);
  }

  @Tool({ description: 'Weather forecast (DTO).' })
  forecastDto(query: ForecastDto) {
    return report(query.city, query.days, query.metric, query.unit);
  }
}

/** JSON.parse + precompiled ajv + a direct call + wrapping: what a careful hand-written loop does. */
function handWritten(schema: object, dto?: new () => ForecastDto) {
  // Same ajv options as Toolsmith's shared instance, so the difference is the framework, not ajv.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  const compiled = ajv.compile(schema);
  const validate = (data: unknown): boolean => compiled(data);
  return async (id: string, name: string, text: string) => {
    const args = JSON.parse(text) as { city: string; days: number; metric: boolean; unit?: string };
    if (!validate(args)) return { error: compiled.errors };
    const result = dto
      ? await Promise.resolve(forecastWith(plainToInstance(dto, args)))
      : await Promise.resolve(report(args.city, args.days, args.metric, args.unit));
    // The loop's product, like Toolsmith's: the function response sent back to the model.
    return { id, name, response: typeof result === 'object' && result !== null ? result : { result } };
  };
}
const forecastWith = (q: ForecastDto) => report(q.city, q.days, q.metric, q.unit);

function toolContext(): ToolContext {
  const actions = createEventActions();
  return new ToolContext({
    functionCallId: 'call-1', invocationId: 'inv', agentName: 'bench', appName: 'bench', userId: 'u', sessionId: 's',
    state: new State({}, actions.stateDelta), actions,
  });
}

/** Runs the per-call benchmark: the same JSON arguments through each path. */
export async function runToolCallBench(iterations = ITERATIONS, rounds = ROUNDS): Promise<ToolCallBenchResult> {
  const tools = createClassTools(WeatherTools, { container: new Container() });
  const byName = (name: string) => tools.find((t) => t.name === name) as BaseTool;
  const flat = byName('forecast');
  const dto = byName('forecastDto');
  // One context for all calls: building it per call is the runner's work, measured by the turn benchmark.
  const context = toolContext();
  const names = () => ['forecast', 'forecastDto'];
  const viaToolsmith = (tool: BaseTool) => () =>
    executeToolCall({ call: { id: 'call-1', name: tool.name, args: ARGS }, tool, availableToolNames: names, context });
  // Checked once, outside the timed loops: every path must really succeed.
  for (const tool of [flat, dto]) {
    const outcome = await viaToolsmith(tool)();
    if (outcome.error) throw outcome.error;
  }
  const hand = handWritten(flat.parameters);
  const handDto = handWritten(dto.parameters, ForecastDto);

  // Vercel AI SDK: tool() with a zod schema; a call is safeParseJSON (parse + zod) then execute.
  const weather = aiTool({
    description: 'Weather forecast.',
    inputSchema: z.object({ city: z.string(), days: z.number(), metric: z.boolean(), unit: z.enum(['celsius', 'fahrenheit']).optional() }),
    execute: async (args) => report(args.city, args.days, args.metric, args.unit),
  });
  const aiSchema = weather.inputSchema as z.ZodType<{ city: string; days: number; metric: boolean; unit?: 'celsius' | 'fahrenheit' }>;
  const viaAiSdk = async () => {
    const parsed = await safeParseJSON({ text: ARGS, schema: aiSchema });
    if (!parsed.success) throw parsed.error;
    return weather.execute!(parsed.value, { toolCallId: 'call-1', messages: [] });
  };

  const flatResult = await compare({ handWritten: () => hand('call-1', 'forecast', ARGS), toolsmith: viaToolsmith(flat), aiSdk: viaAiSdk }, iterations, rounds);
  const dtoResult = await compare({ handWritten: () => handDto('call-1', 'forecastDto', ARGS), toolsmith: viaToolsmith(dto) }, iterations, rounds);
  return { flat: flatResult, dto: dtoResult } as ToolCallBenchResult;
}

/** Prints the per-call table with ratios against the targets. */
export async function main(): Promise<void> {
  const { flat, dto } = await runToolCallBench();
  const row = (label: string, m: { ns: number; ratio: number }, target?: number) => [
    label,
    m.ns.toFixed(0),
    m.ratio.toFixed(2),
    target === undefined ? '' : `≤ ${target}  ${verdict(m.ratio <= target)}`,
  ];
  console.log(`Per-call overhead: parse → validate → bind → call → wrap (${ITERATIONS} calls × ${ROUNDS} alternating rounds, medians)`);
  console.log(
    table([
      ['path', 'ns/call', 'ratio to hand-written', 'target'],
      row('hand-written (JSON.parse + precompiled ajv + call)', flat.handWritten),
      row('Toolsmith @Param tool (executeToolCall)', flat.toolsmith, 1.5),
      row('peer: Vercel AI SDK tool() (safeParseJSON + zod + execute)', flat.aiSdk),
      row('hand-written + class-transformer DTO', dto.handWritten),
      row('Toolsmith DTO tool (executeToolCall)', dto.toolsmith, 1.5),
    ]),
  );
}
