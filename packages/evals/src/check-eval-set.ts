import type { JsonSchema } from '@toolsmith/core';
import { compileAnswerSchema } from './compile-answer-schema';
import type { EvalSet } from './eval-set';
import { EvalSetError } from './eval-set-error';
import { matcherProblem } from './matcher-problem';
import { invalidEvalSetMessage, judgeMissingMessage, patternFlagsProblem } from './messages';
import { MAX_EVAL_RUNS } from './max-eval-runs';

const MODES = ['exact', 'inOrder', 'anyOrder', 'superset', 'subset'];
const ANSWER_KINDS = ['exact', 'contains', 'pattern', 'schema', 'judge'];
const SET_KEYS = ['id', 'name', 'description', 'cases', 'runs', 'threshold', 'createdAt'];
const CASE_KEYS = ['id', 'turns', 'initialState', 'userId', 'runs', 'threshold', 'createdAt', 'appName'];
const TURN_KEYS = ['user', 'tools', 'answer', 'id', 'createdAt'];
const TOOLS_KEYS = ['match', 'calls'];
const CALL_KEYS = ['name', 'args', 'exactArgs', 'argsText', 'failed'];

/**
 * Checks that `value` is a well-formed {@link EvalSet} (a parsed JSON file or an object built in code):
 * every problem is collected with where it is.
 *
 * @param options.run - the set is about to run: a set with no case is then refused (it would pass having
 *   checked nothing); a set being read or built may still be empty, e.g. a file cases are added to.
 * @throws EvalSetError `EVAL_SET_INVALID` listing every problem; `EVAL_JUDGE_MISSING` when `judgeModel`
 *   is false and a case expects a judged answer.
 */
export function checkEvalSet(value: unknown, options: { judgeModel: boolean; source?: string; run?: boolean }): asserts value is EvalSet {
  const problems: string[] = [];
  const judged: string[] = [];
  const at = (path: string, problem: string) => problems.push(`${path} ${problem}`);
  if (!isObject(value)) {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(options.source ?? 'The value', ['(root) must be an object']));
  }
  unknownKeys(value, SET_KEYS, '', at);
  if (typeof value.id !== 'string' || value.id === '') at('id', 'must be a non-empty string');
  for (const key of ['name', 'description'] as const) if (value[key] !== undefined && typeof value[key] !== 'string') at(key, 'must be a string');
  checkRunsAndThreshold(value, '', at);
  if (!Array.isArray(value.cases)) at('cases', 'must be an array');
  // An empty set would pass having checked nothing.
  else if (options.run === true && value.cases.length === 0) at('cases', 'must not be empty when the set runs');
  const ids = new Set<string>();
  for (const [c, evalCase] of (Array.isArray(value.cases) ? value.cases : []).entries()) {
    const path = `cases[${c}]`;
    if (!isObject(evalCase)) {
      at(path, 'must be an object');
      continue;
    }
    unknownKeys(evalCase, CASE_KEYS, `${path}.`, at);
    if (typeof evalCase.id !== 'string' || evalCase.id === '') at(`${path}.id`, 'must be a non-empty string');
    else if (ids.has(evalCase.id)) at(`${path}.id`, `repeats the id ${JSON.stringify(evalCase.id)}`);
    else ids.add(evalCase.id);
    if (evalCase.initialState !== undefined && !isObject(evalCase.initialState)) at(`${path}.initialState`, 'must be an object');
    if (evalCase.userId !== undefined && (typeof evalCase.userId !== 'string' || evalCase.userId === '')) at(`${path}.userId`, 'must be a non-empty string');
    checkRunsAndThreshold(evalCase, `${path}.`, at);
    if (!Array.isArray(evalCase.turns) || evalCase.turns.length === 0) {
      at(`${path}.turns`, 'must be a non-empty array');
      continue;
    }
    for (const [t, turn] of evalCase.turns.entries()) {
      const turnPath = `${path}.turns[${t}]`;
      if (!isObject(turn)) {
        at(turnPath, 'must be an object');
        continue;
      }
      unknownKeys(turn, TURN_KEYS, `${turnPath}.`, at);
      checkUser(turn.user, `${turnPath}.user`, at);
      if (turn.tools !== undefined) checkTools(turn.tools, `${turnPath}.tools`, at);
      if (turn.answer !== undefined && checkAnswer(turn.answer, `${turnPath}.answer`, at) === 'judge' && !judged.includes(String(evalCase.id))) judged.push(String(evalCase.id));
    }
  }
  if (problems.length) throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(options.source ?? 'The eval set', problems));
  if (judged.length && !options.judgeModel) throw new EvalSetError('EVAL_JUDGE_MISSING', judgeMissingMessage(judged));
}

type At = (path: string, problem: string) => void;

function checkRunsAndThreshold(value: Record<string, unknown>, path: string, at: At): void {
  if (value.runs !== undefined && !(Number.isInteger(value.runs) && (value.runs as number) >= 1 && (value.runs as number) <= MAX_EVAL_RUNS)) at(`${path}runs`, `must be a whole number from 1 to ${MAX_EVAL_RUNS}`);
  if (value.threshold !== undefined && !(typeof value.threshold === 'number' && value.threshold >= 0 && value.threshold <= 1)) at(`${path}threshold`, 'must be a number from 0 to 1');
}

function checkUser(user: unknown, path: string, at: At): void {
  if (typeof user === 'string') {
    if (user === '') at(path, 'must not be empty');
    return;
  }
  if (!isObject(user) || !Array.isArray(user.parts) || user.parts.length === 0) at(path, 'must be a string or a Content ({ role: "user", parts: [...] })');
  else if (user.role !== 'user') at(`${path}.role`, 'must be "user"');
}

function checkTools(tools: unknown, path: string, at: At): void {
  if (!isObject(tools)) return at(path, 'must be an object ({ match?, calls })');
  unknownKeys(tools, TOOLS_KEYS, `${path}.`, at);
  if (tools.match !== undefined && !MODES.includes(tools.match as string)) at(`${path}.match`, `must be one of ${MODES.join(', ')}`);
  if (!Array.isArray(tools.calls)) return at(`${path}.calls`, 'must be an array');
  for (const [i, call] of tools.calls.entries()) {
    const callPath = `${path}.calls[${i}]`;
    if (!isObject(call)) {
      at(callPath, 'must be an object ({ name, args?, exactArgs? })');
      continue;
    }
    unknownKeys(call, CALL_KEYS, `${callPath}.`, at);
    if (typeof call.name !== 'string' || call.name === '') at(`${callPath}.name`, 'must be a non-empty string');
    if (call.exactArgs !== undefined && typeof call.exactArgs !== 'boolean') at(`${callPath}.exactArgs`, 'must be a boolean');
    if (call.failed !== undefined && typeof call.failed !== 'boolean') at(`${callPath}.failed`, 'must be a boolean');
    if (call.argsText !== undefined) {
      if (typeof call.argsText !== 'string') at(`${callPath}.argsText`, 'must be a string');
      if (call.args !== undefined || call.exactArgs !== undefined) at(`${callPath}.argsText`, 'cannot be given with args or exactArgs (it is the whole arguments text)');
    }
    if (call.args === undefined) continue;
    if (!isObject(call.args)) {
      at(`${callPath}.args`, 'must be an object of argument matchers');
      continue;
    }
    for (const [name, matcher] of Object.entries(call.args)) {
      const problem = matcherProblem(matcher);
      if (problem) at(`${callPath}.args.${name}`, problem);
      else if (isObject(matcher) && '$pattern' in matcher) checkPattern(matcher.$pattern, matcher.$flags, `${callPath}.args.${name}`, at);
    }
  }
}

/** Checks an answer expectation; returns its kind when it is well formed. */
function checkAnswer(answer: unknown, path: string, at: At): string | undefined {
  const kinds = isObject(answer) ? Object.keys(answer).filter((key) => ANSWER_KINDS.includes(key)) : [];
  if (!isObject(answer) || kinds.length !== 1) {
    at(path, `must have exactly one of ${ANSWER_KINDS.join(', ')}`);
    return undefined;
  }
  const kind = kinds[0];
  const value = answer[kind];
  unknownKeys(answer, kind === 'pattern' ? ['pattern', 'flags'] : [kind], `${path}.`, at);
  const ok =
    kind === 'exact' || kind === 'judge'
      ? typeof value === 'string' && value !== ''
      : kind === 'contains'
        ? typeof value === 'string' || (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string'))
        : kind === 'schema'
          ? isObject(value) || typeof value === 'function'
          : true;
  if (!ok) at(`${path}.${kind}`, kind === 'contains' ? 'must be a string or a non-empty array of strings' : kind === 'schema' ? 'must be a JSON Schema or a Standard Schema' : 'must be a non-empty string');
  if (ok && kind === 'schema' && !isStandardSchema(value)) {
    try {
      compileAnswerSchema(value as JsonSchema);
    } catch (error) {
      at(`${path}.schema`, `is not a valid JSON Schema: ${((error as Error).cause as Error).message}`);
    }
  }
  if (kind === 'pattern') {
    if (value instanceof RegExp) {
      if (answer.flags !== undefined) at(`${path}.flags`, patternFlagsProblem());
      return kind;
    }
    checkPattern(value, answer.flags, `${path}.pattern`, at);
  }
  return kind;
}

function checkPattern(pattern: unknown, flags: unknown, path: string, at: At): void {
  if (typeof pattern !== 'string') return at(path, 'must be a string (a regular expression)');
  if (flags !== undefined && typeof flags !== 'string') return at(path, 'flags must be a string');
  try {
    new RegExp(pattern, flags as string | undefined);
  } catch (error) {
    at(path, `is not a valid regular expression: ${(error as Error).message}`);
  }
}

/** Every key of `value` not in `known` is a problem: a misspelt key would silently check nothing. */
function unknownKeys(value: Record<string, unknown>, known: readonly string[], path: string, at: At): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) at(`${path}${key}`, `is not a known key (known: ${known.join(', ')})`);
}

function isStandardSchema(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
