import 'reflect-metadata';
import { BaseTool, type FunctionDeclaration, type JsonSchema, LlmAgent, type LlmRequest, Runner } from '@toolsmith/core';
import type { Content, FunctionResponse, Model, ToolContext } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { performance } from 'node:perf_hooks';
import { gcFunction, heapUsed, reachableValueBytes } from './measure';

/** One clock's figures of {@link runTurnBench}: median microseconds per turn, and medians of per-round ratios. */
export interface TurnFigures {
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
  /** A turn whose call breaks the schema three ways, through a hand-written loop that validates with ajv and reports its first problem. */
  invalidHandWrittenUs: number;
  /** The same turn through the runner, which answers the call with every problem. */
  toolsmithInvalidUs: number;
  /** toolsmith / hand-written, invalid call; target ≤ 5. */
  invalidRatio: number;
}

/** Result of {@link runTurnBench} (user message → one tool call → answer). */
export interface TurnBenchResult {
  /** Wall-clock time: what a caller waits, but on a shared machine also the time slices other processes got. */
  wall: TurnFigures;
  /** This process's CPU time (user + system, every thread): the work itself, whatever else the machine runs. */
  cpu: TurnFigures;
  /**
   * Heap still reachable after each of {@link RETAINED_ROUNDS} consecutive rounds of {@link RETAINED_TURNS}
   * turns (each session deleted after its turn), against before the round, in bytes (`heapUsed` after full
   * collections). It also moves with the code the JIT compiles and drops, by up to about 100 KiB a round
   * either way on these machines, whatever turns leave.
   */
  toolsmithRetainedBytes: number[];
  /** The same for the bare hand-written loop. */
  handWrittenRetainedBytes: number[];
  /**
   * The same rounds' change in bytes held by the program's values (objects, closures, arrays, strings, …;
   * read from a heap snapshot, V8's code and internal lists left out): what turns leave behind, without the
   * JIT's noise. Target: their mean (all rounds' change over the number of rounds) ≤ 8 KiB. The mean over
   * all rounds, not a late round alone, because a table that grows by one entry per turn (a Map, a Set, an
   * array) grows its memory in doublings, between which a round can read 0: the rounds run more turns than
   * all before them (the timing batches), so such a table doubles at least once within them.
   */
  toolsmithRetainedValueBytes: number[];
  /** The same for the bare hand-written loop. */
  handWrittenRetainedValueBytes: number[];
}

/** Turns per round of {@link TurnBenchResult.toolsmithRetainedBytes}. */
export const RETAINED_TURNS = 20_000;
/** Rounds of {@link RETAINED_TURNS} turns whose retained heap is measured. */
export const RETAINED_ROUNDS = 6;

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

/**
 * The model's side of a turn with an invalid call: the call breaks the schema three ways (no `city`,
 * a `unit` outside the enum, an unknown property; nothing argument repair can fix), then the model
 * answers whatever it is told.
 */
export function invalidCallModel(): ScriptedModel {
  return new ScriptedModel((request) => {
    const last = request.contents[request.contents.length - 1];
    if (last.parts[0]?.functionResponse) return 'Which city?';
    return { calls: [{ id: 'call-1', name: 'tool_0', args: { unit: 'kelvin', country: 'FR' } }] };
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

/**
 * Wall-clock and CPU time in µs per turn of one batch of `turns` turns. A young-generation collection
 * first, untimed: without it, a batch of a contestant that allocates little (the bare loop) often paid
 * for collecting the garbage the batch before it left (one scavenge is a large part of a 1 ms batch).
 */
async function batch(turns: number, turn: () => Promise<string>, gc: (options?: { type: 'minor' }) => void): Promise<{ wall: number; cpu: number }> {
  gc({ type: 'minor' });
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < turns; i++) await turn();
  const used = process.cpuUsage(cpu);
  return { wall: ((performance.now() - wall) * 1000) / turns, cpu: (used.user + used.system) / turns };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Bytes of heap still reachable after each of `rounds` rounds of `turns` turns, against before that round:
 * all of it (`heapUsed`, after full collections) and the program's values alone ({@link reachableValueBytes}).
 * The runner (with its session service) stays alive across all of them, so only what turns leave behind
 * (and, in `heap`, code the JIT compiles or drops meanwhile) counts.
 */
async function retainedBytes(rounds: number, turns: number, turn: () => Promise<string>): Promise<{ heap: number[]; values: number[] }> {
  const gc = gcFunction();
  const heap: number[] = [];
  const values: number[] = [];
  let before = heapUsed(gc);
  let valuesBefore = await reachableValueBytes();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < turns; i++) await turn();
    const after = heapUsed(gc);
    const valuesAfter = await reachableValueBytes();
    heap.push(after - before);
    values.push(valuesAfter - valuesBefore);
    // Read after the snapshot (whose own garbage the next reading's collections take), so that it is not counted in the next round.
    before = heapUsed(gc);
    valuesBefore = valuesAfter;
  }
  return { heap, values };
}

/**
 * Per-turn cost of Toolsmith against a hand-written loop over the same `ScriptedModel`, and of a
 * turn with 500 tools registered against one with 3. Each Toolsmith turn starts a fresh session.
 */
export async function runTurnBench(options: { turns?: number; rounds?: number } = {}): Promise<TurnBenchResult> {
  // Long enough that each contestant's batch collects its own garbage several times over (about 35 MB for the bare loop).
  const turns = options.turns ?? 5000;
  const rounds = options.rounds ?? 9;

  const handTools = tools(3);
  const byName = new Map(handTools.map((t) => [t.name, t]));
  const declarations = handTools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const handModel = scriptedModel();
  const sameJob: HandWrittenJob = { validators: new Map(handTools.map((t) => [t.name, ajv.compile(t.parameters)])), histories: new Map() };
  const runnerWith = (count: number, model = scriptedModel()) =>
    new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model, instruction: 'You report the weather.', tools: tools(count) }) });
  const three = runnerWith(3);
  const many = runnerWith(500);
  const invalidRunner = runnerWith(3, invalidCallModel());
  const invalidModel = invalidCallModel();
  // A careful loop's validation: ajv's default mode, which stops at the first problem and reports it.
  const firstProblem: HandWrittenJob = { validators: new Map(handTools.map((t) => [t.name, ajv.compile(t.parameters)])) };
  let session = 0;
  const shapedStore = new AsyncStore();
  const contestants = {
    hand: () => handWrittenTurn(handModel, byName, declarations, 'Weather in Paris?'),
    sameJob: () => handWrittenTurn(handModel, byName, declarations, 'Weather in Paris?', { ...sameJob, sessionId: `h${session++}` }),
    shaped: () => runnerShapedTurn(handModel, byName, declarations, shapedStore, `r${session++}`, 'Weather in Paris?'),
    three: () => toolsmithTurn(three, `s${session++}`, 'Weather in Paris?'),
    many: () => toolsmithTurn(many, `s${session++}`, 'Weather in Paris?'),
    invalidHand: () => handWrittenTurn(invalidModel, byName, declarations, 'Weather?', firstProblem),
    invalid: () => toolsmithTurn(invalidRunner, `s${session++}`, 'Weather?'),
  };

  // Batches alternate between contestants, so load from other processes hits all of them alike;
  // ratios are taken per round and the median round is reported.
  type Contestant = keyof typeof contestants;
  const gc = gcFunction();
  for (const run of Object.values(contestants)) await batch(turns, run, gc); // warm-up (JIT, ajv compile)
  const rounds_: Array<Record<Contestant, { wall: number; cpu: number }>> = [];
  for (let r = 0; r < rounds; r++) {
    const round = {} as Record<Contestant, { wall: number; cpu: number }>;
    for (const name of Object.keys(contestants) as Contestant[]) round[name] = await batch(turns, contestants[name], gc);
    rounds_.push(round);
  }
  const figures = (clock: 'wall' | 'cpu'): TurnFigures => {
    const us = (name: Contestant) => median(rounds_.map((r) => r[name][clock]));
    const ratio = (a: Contestant, b: Contestant) => median(rounds_.map((r) => r[a][clock] / r[b][clock]));
    return {
      handWrittenUs: us('hand'),
      handWrittenSameJobUs: us('sameJob'),
      toolsmithUs: us('three'),
      overheadRatio: ratio('three', 'hand'),
      sameJobRatio: ratio('three', 'sameJob'),
      runnerShapedUs: us('shaped'),
      shapeRatio: ratio('shaped', 'hand'),
      overShapeRatio: ratio('three', 'shaped'),
      toolsmith500ToolsUs: us('many'),
      manyToolsRatio: ratio('many', 'three'),
      invalidHandWrittenUs: us('invalidHand'),
      toolsmithInvalidUs: us('invalid'),
      invalidRatio: ratio('invalid', 'invalidHand'),
    };
  };
  const toolsmithRetained = await retainedBytes(RETAINED_ROUNDS, RETAINED_TURNS, contestants.three);
  const handWrittenRetained = await retainedBytes(RETAINED_ROUNDS, RETAINED_TURNS, contestants.hand);
  return {
    wall: figures('wall'),
    cpu: figures('cpu'),
    toolsmithRetainedBytes: toolsmithRetained.heap,
    handWrittenRetainedBytes: handWrittenRetained.heap,
    toolsmithRetainedValueBytes: toolsmithRetained.values,
    handWrittenRetainedValueBytes: handWrittenRetained.values,
  };
}

/** Prints {@link runTurnBench} results with their targets. */
export async function main(): Promise<void> {
  const r = await runTurnBench();
  const us = (v: number) => `${v.toFixed(1).padStart(6)} µs`;
  const both = (pick: (f: TurnFigures) => number) => `${us(pick(r.wall))}  ${us(pick(r.cpu))}`;
  const ratios = (pick: (f: TurnFigures) => number, target?: number) =>
    `${pick(r.wall).toFixed(2).padStart(6)}×    ${pick(r.cpu).toFixed(2).padStart(6)}×` +
    (target === undefined ? '' : `   (target ≤ ${target}×) ${pick(r.wall) <= target && pick(r.cpu) <= target ? 'OK' : 'MISSED'}`);
  console.log('Turn overhead (user message → one tool call → final answer, ScriptedModel), per turn:   wall       CPU');
  console.log(`  hand-written loop, bare                                                ${both((f) => f.handWrittenUs)}`);
  console.log(`  hand-written loop, ajv validation + history                            ${both((f) => f.handWrittenSameJobUs)}`);
  console.log(`  hand-written loop, runner-shaped (no work)                             ${both((f) => f.runnerShapedUs)}`);
  console.log(`  Toolsmith Runner                                                       ${both((f) => f.toolsmithUs)}`);
  console.log(`    vs bare loop                                                         ${ratios((f) => f.overheadRatio, 3)}`);
  console.log(`    vs same-job loop                                                     ${ratios((f) => f.sameJobRatio)}`);
  console.log(`    runner-shaped vs bare loop (the API's shape alone)                   ${ratios((f) => f.shapeRatio)}`);
  console.log(`    vs runner-shaped loop (the framework's own work)                     ${ratios((f) => f.overShapeRatio)}`);
  console.log(`  Toolsmith, 500 tools registered                                        ${both((f) => f.toolsmith500ToolsUs)}`);
  console.log(`    vs 3 tools                                                           ${ratios((f) => f.manyToolsRatio, 1.2)}`);
  console.log('Turn with an invalid call (a missing property, a value outside the enum, an unknown property):');
  console.log(`  hand-written loop, ajv, first problem only                             ${both((f) => f.invalidHandWrittenUs)}`);
  console.log(`  Toolsmith Runner, every problem                                        ${both((f) => f.toolsmithInvalidUs)}`);
  console.log(`    vs hand-written                                                      ${ratios((f) => f.invalidRatio, 5)}`);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)}`;
  // Once the JIT has settled: the median of the last three rounds (heapUsed, which the JIT's code moves).
  const settled = (rounds: number[]) => median(rounds.slice(-3));
  // The values: the mean over all rounds (see TurnBenchResult.toolsmithRetainedValueBytes).
  const mean = (rounds: number[]) => rounds.reduce((sum, bytes) => sum + bytes, 0) / rounds.length;
  const target = (rounds: number[]) => `(target ≤ 8) ${mean(rounds) <= 8 * 1024 ? 'OK' : 'MISSED'}`;
  console.log(`Heap retained per ${RETAINED_TURNS.toLocaleString('en')} turns, ${RETAINED_ROUNDS} rounds in a row (full GC before and after each, session deleted after each turn), KiB:`);
  console.log('  held by values (objects, closures, arrays, strings; from a heap snapshot, V8\'s code left out):');
  console.log(`    hand-written loop, bare  ${r.handWrittenRetainedValueBytes.map(kib).join(' / ')}   mean ${kib(mean(r.handWrittenRetainedValueBytes))}`);
  console.log(`    Toolsmith Runner         ${r.toolsmithRetainedValueBytes.map(kib).join(' / ')}   mean ${kib(mean(r.toolsmithRetainedValueBytes))} ${target(r.toolsmithRetainedValueBytes)}`);
  console.log('  heap used (also moves with the code the JIT compiles and drops, ±100 KiB a round):');
  console.log(`    hand-written loop, bare  ${r.handWrittenRetainedBytes.map(kib).join(' / ')}   settled ${kib(settled(r.handWrittenRetainedBytes))}`);
  console.log(`    Toolsmith Runner         ${r.toolsmithRetainedBytes.map(kib).join(' / ')}   settled ${kib(settled(r.toolsmithRetainedBytes))}`);
}

if (require.main === module) void main();
