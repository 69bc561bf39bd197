import type { JsonValue } from '@toolsmith/core';
import { checkEvalSet } from './check-eval-set';
import type { EvalCase, EvalSet, EvalTurn, ExpectedCall } from './eval-set';
import { EvalSetError } from './eval-set-error';
import { literalArguments } from './literal-arguments';
import { adkCaseUnsupportedMessage, adkExpectationUnsupportedMessage, invalidEvalSetMessage } from './messages';

/** A `Content` as ADK's files hold it (google-genai's shape, snake_case). */
export interface AdkContent {
  /** `user` or `model`. */
  role?: string;
  /** The parts; Toolsmith reads and writes text parts. */
  parts: Array<{ text?: string | null } & Record<string, unknown>>;
}

/** One invocation (turn) of an ADK eval case, as Toolsmith writes it. */
export interface AdkInvocation {
  /** The turn's id. */
  invocation_id?: string;
  /** The user's message. */
  user_content: AdkContent;
  /** The expected final answer. */
  final_response?: AdkContent;
  /** The expected tool calls, in order. */
  intermediate_data?: { tool_uses: Array<{ name: string; args: Record<string, JsonValue> }>; intermediate_responses: unknown[] };
  /** When it was recorded (seconds since the epoch). */
  creation_timestamp?: number;
}

/** An ADK eval set (`.evalset.json`, also the `.test.json` files of `AgentEvaluator`), as Toolsmith writes it. */
export interface AdkEvalSet {
  /** The set's id. */
  eval_set_id: string;
  /** Its name. */
  name?: string;
  /** Its description. */
  description?: string;
  /** The cases. */
  eval_cases: Array<{
    eval_id: string;
    conversation: AdkInvocation[];
    session_input?: { app_name: string; user_id: string; state: Record<string, unknown> };
    creation_timestamp?: number;
  }>;
  /** When it was created (seconds since the epoch). */
  creation_timestamp?: number;
}

/** Options of {@link fromAdkEvalSet}. */
export interface FromAdkEvalSetOptions {
  /** What an invocation's `final_response` text becomes: an `exact` answer expectation (default), or nothing (`ignore`). */
  answers?: 'exact' | 'ignore';
  /** Names the file in error messages. */
  source?: string;
}

/**
 * Reads an ADK eval set (the JSON of ADK's `EvalSet`, snake_case or camelCase keys) into an {@link EvalSet}:
 * each invocation becomes a turn whose `user_content` is the user's message, whose `tool_uses` are the
 * expected calls (`match: 'exact'`, each with its arguments, `exactArgs: true`: ADK compares them whole)
 * and whose `final_response` text is an `exact` answer. `session_input` gives the case's `userId`,
 * `initialState` and `appName`. Ids and creation timestamps are kept.
 *
 * @throws EvalSetError `EVAL_SET_INVALID` for JSON that is not an ADK eval set (a tool use without a name or
 *   with args that are not an object included) or an `answers` option that is neither; `EVAL_SET_UNSUPPORTED` for a
 *   case with a `conversation_scenario` (a simulated user), or a user message with other parts than text.
 */
export function fromAdkEvalSet(json: unknown, options: FromAdkEvalSetOptions = {}): EvalSet {
  const source = options.source ?? 'The ADK eval set';
  if (options.answers !== undefined && options.answers !== 'exact' && options.answers !== 'ignore') {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, [`the answers option must be "exact" or "ignore", not ${JSON.stringify(options.answers)}`]));
  }
  const root = record(json);
  const id = pick(root, 'eval_set_id');
  const cases = pick(root, 'eval_cases');
  if (typeof id !== 'string' || !Array.isArray(cases)) {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, ['an ADK eval set needs eval_set_id (a string) and eval_cases (an array)']));
  }
  const set: EvalSet = { id, cases: cases.map((c, i) => readCase(record(c), i, options, source)) };
  copyString(root, 'name', set, 'name');
  copyString(root, 'description', set, 'description');
  copyNumber(root, 'creation_timestamp', set, 'createdAt');
  checkEvalSet(set, { judgeModel: true, source });
  return set;
}

function readCase(raw: Record<string, unknown>, index: number, options: FromAdkEvalSetOptions, source: string): EvalCase {
  const id = pick(raw, 'eval_id');
  const caseId = typeof id === 'string' ? id : `eval_cases[${index}]`;
  if (pick(raw, 'conversation_scenario') != null) throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkCaseUnsupportedMessage(caseId, 'a conversation_scenario (a simulated user)'));
  const conversation = pick(raw, 'conversation');
  if (typeof id !== 'string' || !Array.isArray(conversation)) {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, [`eval_cases[${index}] needs eval_id (a string) and conversation (an array)`]));
  }
  const evalCase: EvalCase = { id, turns: conversation.map((inv, t) => readInvocation(record(inv), caseId, t, options, source)) };
  const input = pick(raw, 'session_input');
  if (input != null) {
    const session = record(input);
    copyString(session, 'user_id', evalCase, 'userId');
    copyString(session, 'app_name', evalCase, 'appName');
    const state = pick(session, 'state');
    if (state != null) evalCase.initialState = record(state);
  }
  copyNumber(raw, 'creation_timestamp', evalCase, 'createdAt');
  return evalCase;
}

function readInvocation(raw: Record<string, unknown>, caseId: string, index: number, options: FromAdkEvalSetOptions, source: string): EvalTurn {
  const userContent = pick(raw, 'user_content');
  const parts = userContent == null ? undefined : pick(record(userContent), 'parts');
  if (!Array.isArray(parts)) throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, [`case ${caseId}, invocation ${index}: user_content needs parts`]));
  const others = parts.map((part) => record(part)).filter((part) => Object.entries(part).some(([key, value]) => key !== 'text' && value != null));
  if (others.length) throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkCaseUnsupportedMessage(caseId, `a user message with parts other than text (invocation ${index})`));
  const user = parts.map((part) => pick(record(part), 'text') ?? '').join('');
  const turn: EvalTurn = { user };
  copyString(raw, 'invocation_id', turn, 'id');
  const data = pick(raw, 'intermediate_data');
  if (data != null) turn.tools = { match: 'exact', calls: toolUses(record(data), `case ${caseId}, invocation ${index}`, source) };
  const finalResponse = pick(raw, 'final_response');
  if (finalResponse != null && options.answers !== 'ignore') {
    const answerParts = pick(record(finalResponse), 'parts');
    // The non-empty text parts joined with "\n", as ADK's final response evaluator reads one
    // (google/adk-python@076c2ba, src/google/adk/evaluation/final_response_match_v1.py,
    // `_get_text_from_content`); thought parts (`thought: true`) are left out: a model's reasoning is not its answer.
    const text = (Array.isArray(answerParts) ? answerParts : [])
      .map(record)
      .filter((part) => part.thought !== true)
      .map((part) => pick(part, 'text'))
      .filter((value): value is string => typeof value === 'string' && value !== '')
      .join('\n');
    if (text) turn.answer = { exact: text };
  }
  copyNumber(raw, 'creation_timestamp', turn, 'createdAt');
  return turn;
}

/** The expected calls: `tool_uses`, or the function calls of `invocation_events` (ADK's other form). */
function toolUses(data: Record<string, unknown>, place: string, source: string): ExpectedCall[] {
  const uses = pick(data, 'tool_uses');
  const calls: Array<Record<string, unknown>> = Array.isArray(uses) ? uses.map(record) : [];
  const events = pick(data, 'invocation_events');
  for (const event of Array.isArray(events) ? events : []) {
    const content = pick(record(event), 'content');
    const parts = content == null ? [] : pick(record(content), 'parts');
    for (const part of Array.isArray(parts) ? parts : []) {
      const call = pick(record(part), 'function_call');
      if (call != null) calls.push(record(call));
    }
  }
  const problems: string[] = [];
  calls.forEach((call, i) => {
    if (typeof call.name !== 'string' || call.name === '') problems.push(`${place}: tool call ${i} needs a name`);
    if (call.args != null && record(call.args) !== call.args) problems.push(`${place}: the args of tool call ${i} must be an object`);
  });
  if (problems.length) throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, problems));
  // ADK's arguments are literal values: one that is or holds what looks like a matcher (`{ "$pattern": … }`)
  // is wrapped in `$equals`, so it is compared as it is (and written back unwrapped).
  return calls.map((call) => ({ name: call.name as string, args: literalArguments(record(call.args ?? {})), exactArgs: true }));
}

function looksLikeMatcher(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && ('$pattern' in value || '$equals' in value);
}

/** An argument as ADK holds it: `{ $equals: v }` is written as `v`; undefined for a matcher ADK cannot hold. */
function adkArgument(value: unknown): JsonValue | undefined {
  if (looksLikeMatcher(value) && '$equals' in (value as object) && Object.keys(value as object).length === 1) {
    const literal = (value as { $equals: unknown }).$equals;
    return isPlainJsonDeep(literal) ? (literal as JsonValue) : undefined;
  }
  return isPlainJson(value) ? (value as JsonValue) : undefined;
}

/**
 * Writes an {@link EvalSet} as ADK's eval set JSON (snake_case, as ADK's own files): each turn an
 * invocation with its `user_content`, the expected calls as `intermediate_data.tool_uses` and an
 * `exact` answer as `final_response`. `runs` and `threshold` are not written (ADK sets them when it runs).
 *
 * @throws EvalSetError `EVAL_SET_UNSUPPORTED` for an expectation ADK's format cannot hold: a trajectory
 *   matched other than `exact`, a call whose arguments are not all listed as plain values (`exactArgs`),
 *   an answer other than `exact`, a user message with other parts than text.
 */
export function toAdkEvalSet(set: EvalSet, options: { appName?: string } = {}): AdkEvalSet {
  checkEvalSet(set, { judgeModel: true });
  const out: AdkEvalSet = { eval_set_id: set.id, eval_cases: [] };
  if (set.name !== undefined) out.name = set.name;
  if (set.description !== undefined) out.description = set.description;
  for (const evalCase of set.cases) {
    const conversation = evalCase.turns.map((turn, index) => writeTurn(turn, `case ${evalCase.id}, turn ${index}`));
    const written: AdkEvalSet['eval_cases'][number] = { eval_id: evalCase.id, conversation };
    if (evalCase.userId !== undefined || evalCase.initialState !== undefined || evalCase.appName !== undefined) {
      written.session_input = { app_name: evalCase.appName ?? options.appName ?? set.id, user_id: evalCase.userId ?? 'eval-user', state: evalCase.initialState ?? {} };
    }
    if (evalCase.createdAt !== undefined) written.creation_timestamp = evalCase.createdAt;
    out.eval_cases.push(written);
  }
  if (set.createdAt !== undefined) out.creation_timestamp = set.createdAt;
  return out;
}

function writeTurn(turn: EvalTurn, place: string): AdkInvocation {
  let text: string;
  if (typeof turn.user === 'string') text = turn.user;
  else if (turn.user.parts.every((part) => part.text !== undefined && Object.keys(part).length === 1)) text = turn.user.parts.map((part) => part.text).join('');
  else throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkExpectationUnsupportedMessage(place, 'a user message with parts other than text'));
  const invocation: AdkInvocation = { user_content: { parts: [{ text }], role: 'user' } };
  if (turn.id !== undefined) invocation.invocation_id = turn.id;
  if (turn.answer) {
    if (turn.answer.exact === undefined) throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkExpectationUnsupportedMessage(place, `an answer that ${Object.keys(turn.answer)[0]} …`));
    invocation.final_response = { parts: [{ text: turn.answer.exact }], role: 'model' };
  }
  if (turn.tools) {
    if ((turn.tools.match ?? 'exact') !== 'exact') throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkExpectationUnsupportedMessage(place, `calls matched ${turn.tools.match}`));
    const toolUses = turn.tools.calls.map((call) => {
      const args: Record<string, JsonValue> = {};
      let plain = true;
      for (const [key, value] of Object.entries(call.args ?? {})) {
        const literal = adkArgument(value);
        if (literal === undefined) plain = false;
        else args[key] = literal;
      }
      if (!call.exactArgs || !plain) throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkExpectationUnsupportedMessage(place, `a call of ${call.name} whose arguments are not all given as plain values with exactArgs`));
      return { name: call.name, args };
    });
    invocation.intermediate_data = { tool_uses: toolUses, intermediate_responses: [] };
  }
  if (turn.createdAt !== undefined) invocation.creation_timestamp = turn.createdAt;
  return invocation;
}

/** A JSON value, matcher-looking keys allowed (the value of an `$equals`). */
function isPlainJsonDeep(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every(isPlainJsonDeep);
  if (typeof value !== 'object' || value instanceof RegExp || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlainJsonDeep);
}

/** A plain JSON value, not a matcher (`RegExp`, function, `{ $pattern }`, `{ $equals }`). */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object' || value instanceof RegExp) return false;
  return !('$pattern' in value) && !('$equals' in value) && Object.values(value).every(isPlainJson);
}

/** A key in ADK's snake_case, or its camelCase alias (ADK's models accept both). */
function pick(raw: Record<string, unknown>, snake: string): unknown {
  if (raw[snake] !== undefined) return raw[snake];
  return raw[snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function copyString<T extends object>(from: Record<string, unknown>, key: string, to: T, as: keyof T & string): void {
  const value = pick(from, key);
  if (typeof value === 'string') (to as Record<string, unknown>)[as] = value;
}

function copyNumber<T extends object>(from: Record<string, unknown>, key: string, to: T, as: keyof T & string): void {
  const value = pick(from, key);
  if (typeof value === 'number') (to as Record<string, unknown>)[as] = value;
}
