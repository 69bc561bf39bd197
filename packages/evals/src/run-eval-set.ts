import { randomUUID } from 'node:crypto';
import type { BaseAgent, Content, Event, FunctionResponse, Model, Plugin, Provider, SessionService } from '@toolsmith/core';
import { REQUEST_CONFIRMATION, REQUEST_CREDENTIAL, Runner, thrownMessage } from '@toolsmith/core';
import { argumentsAsRead, redactSecretText, redactSecrets } from '@toolsmith/core/internal';
import { callFailure, finalResponses } from './call-failure';
import { checkEvalSet } from './check-eval-set';
import type { EvalCase, EvalSet, EvalTurn } from './eval-set';
import type { CaseReport, EvalReport, RunReport, TurnReport } from './eval-report';
import type { ActualCall } from './match-call';
import { matchAnswer } from './match-answer';
import { matchTrajectory } from './match-trajectory';
import { passesThreshold } from './passes-threshold';

/** Options of {@link runEvalSet}. */
export interface RunEvalSetOptions {
  /** The agent to evaluate (its model decides where it runs: a `ScriptedModel` offline, a provider's adapter for real). */
  agent: BaseAgent;
  /** Dependencies of the agent's `@Toolset` classes, as for a `Runner`. */
  providers?: Provider[];
  /** Runner plugins. */
  plugins?: Plugin[];
  /** The runner's `appName`; default the agent's name. */
  appName?: string;
  /** Where the runs' sessions are kept; default a new in-memory store. */
  sessionService?: SessionService;
  /** The model that grades `judge` answer expectations; required when a case has one. */
  judgeModel?: Model;
  /** Called after each run of each case, in order (progress output). */
  onRun?: (caseId: string, run: RunReport) => void;
  /** Aborts the runs (the current model call and tools see it). */
  signal?: AbortSignal;
}

/**
 * Runs every case of `set` against the agent: each run of a case starts a new session (with the case's
 * `initialState`) and sends the case's user messages one by one, each turn's calls and final answer
 * checked against what the turn expects. A case runs `runs` times (one after the other) and passes when
 * the share of passing runs reaches its `threshold`; the report says what each turn did, with a
 * trajectory diff. Never rejects for a failing case: read `report.pass`.
 *
 * @throws EvalSetError `EVAL_SET_INVALID` for a malformed set, `EVAL_JUDGE_MISSING` when a case expects a
 *   judged answer and no `judgeModel` is given (checked before anything runs).
 */
export async function runEvalSet(set: EvalSet, options: RunEvalSetOptions): Promise<EvalReport> {
  checkEvalSet(set, { judgeModel: options.judgeModel !== undefined, run: true });
  const runner = new Runner({
    appName: options.appName ?? options.agent.name,
    agent: options.agent,
    ...(options.providers ? { providers: options.providers } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
    ...(options.sessionService ? { sessionService: options.sessionService } : {}),
  });
  const cases: CaseReport[] = [];
  for (const evalCase of set.cases) {
    const runs = evalCase.runs ?? set.runs ?? 1;
    const threshold = evalCase.threshold ?? set.threshold ?? 1;
    const results: RunReport[] = [];
    for (let run = 1; run <= runs; run++) {
      const result = await runCase(runner, evalCase, run, options);
      results.push(result);
      options.onRun?.(evalCase.id, result);
    }
    const passedRuns = results.filter((r) => r.pass).length;
    cases.push({ id: evalCase.id, pass: passesThreshold(passedRuns, runs, threshold), runs, passedRuns, threshold, results });
  }
  const passedCases = cases.filter((c) => c.pass).length;
  return { setId: set.id, ...(set.name ? { name: set.name } : {}), pass: passedCases === cases.length, passedCases, cases };
}

async function runCase(runner: Runner, evalCase: EvalCase, run: number, options: RunEvalSetOptions): Promise<RunReport> {
  const userId = evalCase.userId ?? 'eval-user';
  const sessionId = `eval-${randomUUID()}`;
  await runner.sessionService.createSession({ appName: runner.appName, userId, sessionId, state: structuredClone(evalCase.initialState ?? {}) });
  const turns: TurnReport[] = [];
  for (const [index, turn] of evalCase.turns.entries()) {
    const events: Event[] = [];
    const newMessage = userContent(turn);
    for await (const event of runner.run({ userId, sessionId, newMessage, ...(options.signal ? { signal: options.signal } : {}) })) events.push(event);
    const report = await checkTurn(index, turn, newMessage, events, options);
    turns.push(report);
    if (report.error || report.pausedOn) break;
  }
  return { run, pass: turns.length === evalCase.turns.length && turns.every((t) => t.pass), sessionId, turns };
}

async function checkTurn(index: number, turn: EvalTurn, message: Content, events: Event[], options: RunEvalSetOptions): Promise<TurnReport> {
  const user = textOf(message);
  const calls: ActualCall[] = [];
  let final: Event | undefined;
  let error: TurnReport['error'];
  const pausedOn: string[] = [];
  // Each call's arguments as the executor read them: its (first) response says whether it repaired their text.
  const responses = new Map<string, FunctionResponse>();
  for (const event of events) for (const response of event.functionResponses()) if (!responses.has(response.id)) responses.set(response.id, response);
  // Whether each call failed: its final response is an error (docs/evals.md: a failed call does not count as made).
  const lastResponses = finalResponses(events.flatMap((event) => event.functionResponses()));
  for (const event of events) {
    if (event.author === 'user') continue;
    if (event.errorCode) error = { code: event.errorCode, message: event.errorMessage ?? '' };
    for (const call of event.functionCalls()) {
      if (call.name === REQUEST_CONFIRMATION || call.name === REQUEST_CREDENTIAL) continue;
      const failure = callFailure(lastResponses.get(call.id));
      calls.push({ name: call.name, args: argumentsAsRead(call, responses.get(call.id)), agent: event.author, ...(failure ? { error: failure } : {}) });
    }
    const pending = new Set(event.longRunningToolIds ?? []);
    for (const call of event.functionCalls()) if (pending.has(call.id)) pausedOn.push(call.name === REQUEST_CONFIRMATION ? `confirmation of ${originalName(call.args)}` : call.name);
    for (const response of event.functionResponses()) if (pending.has(response.id)) pausedOn.push(response.name);
    if (!event.errorCode && event.isFinalResponse() && (event.text() || event.output !== undefined)) final = event;
  }
  const answer = final?.text() || undefined;
  const report: TurnReport = { index, user, pass: false, calls, ...(answer !== undefined ? { answer } : {}), ...(final?.output !== undefined ? { output: final.output } : {}) };
  if (turn.tools) report.trajectory = matchTrajectory(turn.tools, calls);
  if (turn.answer) {
    try {
      report.answerCheck = await matchAnswer(turn.answer, { ...(answer !== undefined ? { text: answer } : {}), ...(final?.output !== undefined ? { output: final.output } : {}) }, {
        ...(options.judgeModel ? { judgeModel: options.judgeModel } : {}),
        userText: user,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (thrown) {
      // One case's check never loses the other cases' results: it fails, saying why.
      report.answerCheck = { pass: false, expected: 'the answer check to run', detail: `the check threw: ${thrownMessage(thrown)}` };
    }
  }
  if (error) report.error = error;
  if (pausedOn.length) report.pausedOn = pausedOn;
  report.pass = !error && !pausedOn.length && (report.trajectory?.pass ?? true) && (report.answerCheck?.pass ?? true);
  return redactReport(report);
}

/**
 * The turn's report fit to print: secret-named arguments and secret-looking text (bearer tokens, API keys)
 * redacted, as the dev UI's inspector does, once every check has run on the real values (docs/evals.md).
 */
function redactReport(report: TurnReport): TurnReport {
  const redacted: TurnReport = { ...report, user: redactSecretText(report.user), calls: redactSecrets(report.calls) };
  if (report.answer !== undefined) redacted.answer = redactSecretText(report.answer);
  if (report.output !== undefined) redacted.output = redactSecrets(report.output);
  if (report.answerCheck) redacted.answerCheck = redactSecrets(report.answerCheck);
  if (report.error) redacted.error = { code: report.error.code, message: redactSecretText(report.error.message) };
  return redacted;
}

function userContent(turn: EvalTurn): Content {
  return typeof turn.user === 'string' ? { role: 'user', parts: [{ text: turn.user }] } : turn.user;
}

function textOf(content: Content): string {
  return content.parts
    .filter((part) => part.text !== undefined)
    .map((part) => part.text)
    .join('');
}

function originalName(args: unknown): string {
  const original = (args as { originalFunctionCall?: { name?: unknown } } | undefined)?.originalFunctionCall;
  return typeof original?.name === 'string' ? original.name : 'a call';
}
