import 'reflect-metadata';
import { BaseTool, type FunctionDeclaration, type JsonSchema, LlmAgent, type LlmRequest, Runner } from '@toolsmith/core';
import type { Content, FunctionResponse, Model, ToolContext } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { performance } from 'node:perf_hooks';

/** Result of {@link runTurnBench}: median microseconds per turn (user message → one tool call → answer). */
export interface TurnBenchResult {
  /** The barest loop: no argument validation, nothing kept after the turn. */
  handWrittenUs: number;
  /** The same loop doing the same job as the runner's minimum: ajv-validated arguments, history kept per session. */
  handWrittenSameJobUs: number;
  toolsmithUs: number;
  /** toolsmith / bare hand-written loop; target ≤ 3. */
  overheadRatio: number;
  /** toolsmith / same-job hand-written loop. */
  sameJobRatio: number;
  /** The bare loop's work in the runner's shape: steps relayed through two async generators, each stored through an async store first. */
  runnerShapedUs: number;
  /** runner-shaped / bare loop: what the shape of the API costs before the framework does any work. */
  shapeRatio: number;
  /** toolsmith / runner-shaped loop: the framework's own work. */
  overShapeRatio: number;
  toolsmith500ToolsUs: number;
  /** 500 tools / 3 tools; target ≤ 1.2. */
  manyToolsRatio: number;
}

const PARAMETERS: JsonSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city'],
  additionalProperties: false,
};

class WeatherTool extends BaseTool {
  readonly parameters = PARAMETERS;
  readonly description: string;
  constructor(readonly name: string) {
    super();
    this.description = `Weather tool ${name}.`;
  }
  run(args: Record<string, unknown>, _context: ToolContext) {
    return { status: 'success', report: `Sunny in ${String(args.city)}` };
  }
}

/** The model's side of every turn: call the tool, then answer with its result. */
export function scriptedModel(): ScriptedModel {
  return new ScriptedModel((request) => {
    const last = request.contents[request.contents.length - 1];
    const response = last.parts[0]?.functionResponse;
    if (response) return String(response.response.report);
    return { calls: [{ id: 'call-1', name: 'tool_0', args: { city: 'Paris' } }] };
  }, { keepRequests: false });
}

/** `count` weather tools, `tool_0` … (the model calls `tool_0`). */
export function tools(count: number): BaseTool[] {
  return Array.from({ length: count }, (_, i) => new WeatherTool(`tool_${i}`));
}

/** Options of {@link handWrittenTurn}: what a careful hand-written loop adds to the bare one. */
interface HandWrittenJob {
  /** Validate each call's arguments against the tool's schema (compiled once). */
  validators?: Map<string, ValidateFunction>;
  /** Keep the conversation per session, as a chat app must. */
  histories?: Map<string, Content[]>;
  sessionId?: string;
}

/** What a developer would write without a framework: messages array, one model, a map of tools. */
async function handWrittenTurn(model: Model, byName: Map<string, BaseTool>, declarations: FunctionDeclaration[], text: string, job: HandWrittenJob = {}): Promise<string> {
  const contents: Content[] = job.histories?.get(job.sessionId!) ?? [];
  job.histories?.set(job.sessionId!, contents);
  contents.push({ role: 'user', parts: [{ text }] });
  try {
    for (;;) {
      const request: LlmRequest = { systemInstruction: 'You report the weather.', contents, tools: declarations };
      let content: Content | undefined;
      for await (const response of model.generate(request)) if (!response.partial) content = response.content;
      if (!content) throw new Error('no response');
      contents.push(content);
      const calls = content.parts.filter((p) => p.functionCall).map((p) => p.functionCall!);
      if (calls.length === 0) return content.parts.map((p) => p.text ?? '').join('');
      const responses: FunctionResponse[] = await Promise.all(
        calls.map(async (call) => {
          const args = typeof call.args === 'string' ? (JSON.parse(call.args) as Record<string, unknown>) : call.args;
          const validate = job.validators?.get(call.name);
          if (validate && !validate(args)) return { id: call.id, name: call.name, response: { error: ajv.errorsText(validate.errors) } };
          const result = await byName.get(call.name)!.run(args, undefined as unknown as ToolContext);
          return { id: call.id, name: call.name, response: result as Record<string, unknown> };
        }),
      );
      contents.push({ role: 'user', parts: responses.map((functionResponse) => ({ functionResponse })) });
    }
  } finally {
    job.histories?.delete(job.sessionId!); // like the runner's turns below: nothing kept between turns
  }
}

const ajv = new Ajv2020({ strict: false });

/** Conversations behind an async API, as a `SessionService` keeps them. */
class AsyncStore {
  private readonly sessions = new Map<string, Content[]>();
  async get(sessionId: string): Promise<Content[] | undefined> {
    return this.sessions.get(sessionId);
  }
  async create(sessionId: string): Promise<Content[]> {
    const contents: Content[] = [];
    this.sessions.set(sessionId, contents);
    return contents;
  }
  async append(contents: Content[], content: Content): Promise<void> {
    contents.push(content);
  }
  async delete(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }
}

/** The bare loop's steps as an async generator (the shape of an agent's `runAsync`); it reads the history from `contents`. */
async function* shapedSteps(model: Model, byName: Map<string, BaseTool>, declarations: FunctionDeclaration[], contents: Content[]): AsyncGenerator<Content> {
  for (;;) {
    const request: LlmRequest = { systemInstruction: 'You report the weather.', contents: contents.slice(), tools: declarations };
    let content: Content | undefined;
    // Like the runner: stop reading at the complete response.
    for await (const response of model.generate(request)) {
      if (!response.partial) {
        content = response.content;
        break;
      }
    }
    if (!content) throw new Error('no response');
    yield content;
    const calls = content.parts.filter((p) => p.functionCall).map((p) => p.functionCall!);
    if (calls.length === 0) return;
    const responses: FunctionResponse[] = await Promise.all(
      calls.map(async (call) => {
        const args = typeof call.args === 'string' ? (JSON.parse(call.args) as Record<string, unknown>) : call.args;
        const result = await byName.get(call.name)!.run(args, undefined as unknown as ToolContext);
        return { id: call.id, name: call.name, response: result as Record<string, unknown> };
      }),
    );
    yield { role: 'user', parts: responses.map((functionResponse) => ({ functionResponse })) };
  }
}

/**
 * The bare loop in the shape of `Runner.run`, doing none of its work: load or create the session, store
 * the message, then store each step before relaying it to the caller through a second async generator.
 * The gap between this and the bare loop is what the API's shape costs; the gap between Toolsmith and
 * this is the framework's own work (validation, contexts, events, callbacks, history rules).
 */
async function* shapedInvocation(model: Model, byName: Map<string, BaseTool>, declarations: FunctionDeclaration[], store: AsyncStore, sessionId: string, text: string): AsyncGenerator<Content> {
  const contents = (await store.get(sessionId)) ?? (await store.create(sessionId));
  await store.append(contents, { role: 'user', parts: [{ text }] });
  for await (const content of shapedSteps(model, byName, declarations, contents)) {
    await store.append(contents, content);
    yield content;
  }
}

async function runnerShapedTurn(model: Model, byName: Map<string, BaseTool>, declarations: FunctionDeclaration[], store: AsyncStore, sessionId: string, text: string): Promise<string> {
  let answer = '';
  for await (const content of shapedInvocation(model, byName, declarations, store, sessionId, text)) {
    if (!content.parts.some((p) => p.functionCall || p.functionResponse)) answer = content.parts.map((p) => p.text ?? '').join('');
  }
  await store.delete(sessionId); // like the other turns: nothing kept between turns
  return answer;
}

/** One turn through the runner, in a fresh session deleted afterwards; returns the final answer. */
export async function toolsmithTurn(runner: Runner, sessionId: string, text: string): Promise<string> {
  let answer = '';
  for await (const event of runner.run({ userId: 'bench', sessionId, newMessage: { role: 'user', parts: [{ text }] } })) {
    if (event.isFinalResponse()) answer = event.text();
  }
  // Like the hand-written loop, keep nothing between turns: the bench measures a turn, not a growing heap.
  await runner.sessionService.deleteSession({ appName: 'bench', userId: 'bench', sessionId });
  return answer;
}

/** Time in µs per turn of one batch of `turns` turns. */
async function batch(turns: number, turn: () => Promise<string>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < turns; i++) await turn();
  return ((performance.now() - start) * 1000) / turns;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Per-turn cost of Toolsmith against a hand-written loop over the same `ScriptedModel`, and of a
 * turn with 500 tools registered against one with 3. Each Toolsmith turn starts a fresh session.
 */
export async function runTurnBench(options: { turns?: number; rounds?: number } = {}): Promise<TurnBenchResult> {
  const turns = options.turns ?? 1000;
  const rounds = options.rounds ?? 9;

  const handTools = tools(3);
  const byName = new Map(handTools.map((t) => [t.name, t]));
  const declarations = handTools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const handModel = scriptedModel();
  const sameJob: HandWrittenJob = { validators: new Map(handTools.map((t) => [t.name, ajv.compile(t.parameters)])), histories: new Map() };
  const runnerWith = (count: number) =>
    new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model: scriptedModel(), instruction: 'You report the weather.', tools: tools(count) }) });
  const three = runnerWith(3);
  const many = runnerWith(500);
  let session = 0;
  const shapedStore = new AsyncStore();
  const contestants = {
    hand: () => handWrittenTurn(handModel, byName, declarations, 'Weather in Paris?'),
    sameJob: () => handWrittenTurn(handModel, byName, declarations, 'Weather in Paris?', { ...sameJob, sessionId: `h${session++}` }),
    shaped: () => runnerShapedTurn(handModel, byName, declarations, shapedStore, `r${session++}`, 'Weather in Paris?'),
    three: () => toolsmithTurn(three, `s${session++}`, 'Weather in Paris?'),
    many: () => toolsmithTurn(many, `s${session++}`, 'Weather in Paris?'),
  };

  // Batches alternate between contestants, so load from other processes hits all of them alike;
  // ratios are taken per round and the median round is reported.
  for (const run of Object.values(contestants)) await batch(turns, run); // warm-up (JIT, ajv compile)
  const rounds_: Array<Record<keyof typeof contestants, number>> = [];
  for (let r = 0; r < rounds; r++) {
    rounds_.push({
      hand: await batch(turns, contestants.hand),
      sameJob: await batch(turns, contestants.sameJob),
      shaped: await batch(turns, contestants.shaped),
      three: await batch(turns, contestants.three),
      many: await batch(turns, contestants.many),
    });
  }
  return {
    handWrittenUs: median(rounds_.map((r) => r.hand)),
    handWrittenSameJobUs: median(rounds_.map((r) => r.sameJob)),
    toolsmithUs: median(rounds_.map((r) => r.three)),
    overheadRatio: median(rounds_.map((r) => r.three / r.hand)),
    sameJobRatio: median(rounds_.map((r) => r.three / r.sameJob)),
    runnerShapedUs: median(rounds_.map((r) => r.shaped)),
    shapeRatio: median(rounds_.map((r) => r.shaped / r.hand)),
    overShapeRatio: median(rounds_.map((r) => r.three / r.shaped)),
    toolsmith500ToolsUs: median(rounds_.map((r) => r.many)),
    manyToolsRatio: median(rounds_.map((r) => r.many / r.three)),
  };
}

/** Prints {@link runTurnBench} results with their targets. */
export async function main(): Promise<void> {
  const r = await runTurnBench();
  const us = (v: number) => `${v.toFixed(1)} µs`;
  console.log('Turn overhead (user message → one tool call → final answer, ScriptedModel):');
  console.log(`  hand-written loop, bare                         ${us(r.handWrittenUs)}`);
  console.log(`  hand-written loop, ajv validation + history     ${us(r.handWrittenSameJobUs)}`);
  console.log(`  Toolsmith Runner                                ${us(r.toolsmithUs)}`);
  console.log(`    vs bare loop      ${r.overheadRatio.toFixed(2)}× (target ≤ 3×) ${r.overheadRatio <= 3 ? 'OK' : 'MISSED'}`);
  console.log(`    vs same-job loop  ${r.sameJobRatio.toFixed(2)}× (target ≤ 3×) ${r.sameJobRatio <= 3 ? 'OK' : 'MISSED'}`);
  console.log(`  hand-written loop, runner-shaped (no work)      ${us(r.runnerShapedUs)}   ${r.shapeRatio.toFixed(2)}× the bare loop: the API's shape alone`);
  console.log(`    Toolsmith vs runner-shaped loop  ${r.overShapeRatio.toFixed(2)}× (the framework's own work)`);
  console.log(`  Toolsmith, 500 tools registered                 ${us(r.toolsmith500ToolsUs)}   vs 3 tools ${r.manyToolsRatio.toFixed(2)}× (target ≤ 1.2×) ${r.manyToolsRatio <= 1.2 ? 'OK' : 'MISSED'}`);
}

if (require.main === module) void main();
