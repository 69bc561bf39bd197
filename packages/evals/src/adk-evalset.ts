import type { JsonValue } from '@toolsmith/core';
import { checkEvalSet } from './check-eval-set';
import type { EvalCase, EvalSet, EvalTurn, ExpectedCall } from './eval-set';
import { EvalSetError } from './eval-set-error';
import { literalArguments } from './literal-arguments';
import { OLD_ADK_FORMAT, adkCaseUnsupportedMessage, adkExpectationUnsupportedMessage, invalidEvalSetMessage } from './messages';

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
 *   with args that are not an object or null, any field of the wrong type for ADK's models; every problem at once;
 *   ADK's older `.test.json` format, a list of queries, saying how to migrate it) or an `answers` option that is neither; `EVAL_SET_UNSUPPORTED` for a
 *   case with a `conversation_scenario` (a simulated user), or a user message with other parts than text.
 */
export function fromAdkEvalSet(json: unknown, options: FromAdkEvalSetOptions = {}): EvalSet {
  const source = options.source ?? 'The ADK eval set';
  if (options.answers !== undefined && options.answers !== 'exact' && options.answers !== 'ignore') {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, [`the answers option must be "exact" or "ignore", not ${JSON.stringify(options.answers)}`]));
  }
  if (isOldAdkTestFile(json)) throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, [OLD_ADK_FORMAT]));
  const root = record(json);
  const id = pick(root, 'eval_set_id');
  const cases = pick(root, 'eval_cases');
  if (typeof id !== 'string' || !Array.isArray(cases)) {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, ['an ADK eval set needs eval_set_id (a string) and eval_cases (an array)']));
  }
  // Every problem of the file, reported at once (as the set check does).
  const problems: string[] = [];
  const set: EvalSet = { id, cases: cases.map((c, i) => readCase(c, i, options, problems)) };
  copyString(root, 'name', set, 'name', '', problems);
  copyString(root, 'description', set, 'description', '', problems);
  copyNumber(root, 'creation_timestamp', set, 'createdAt', '', problems);
  if (problems.length) throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(source, problems));
  checkEvalSet(set, { judgeModel: true, source });
  return set;
}

/**
 * True for ADK's older `.test.json` format: a list of queries (`[{ "query", "expected_tool_use",
 * "reference" }, …]`), which ADK's `AgentEvaluator` migrates to an eval set when it loads one.
 */
export function isOldAdkTestFile(json: unknown): boolean {
  return Array.isArray(json) && json.length > 0 && json.every((item) => isRecord(item) && 'query' in item);
}

function readCase(value: unknown, index: number, options: FromAdkEvalSetOptions, problems: string[]): EvalCase {
  const raw = record(value);
  const id = pick(raw, 'eval_id');
  const caseId = typeof id === 'string' ? id : `eval_cases[${index}]`;
  if (pick(raw, 'conversation_scenario') != null) throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkCaseUnsupportedMessage(caseId, 'a conversation_scenario (a simulated user)'));
  const conversation = pick(raw, 'conversation');
  if (typeof id !== 'string' || !Array.isArray(conversation)) {
    problems.push(`eval_cases[${index}] needs eval_id (a string) and conversation (an array)`);
    return { id: caseId, turns: [] };
  }
  const evalCase: EvalCase = { id, turns: conversation.map((inv, t) => readInvocation(inv, caseId, t, options, problems)) };
  const input = pick(raw, 'session_input');
  const place = `case ${caseId}: `;
  if (input != null) {
    if (!isRecord(input)) problems.push(`${place}session_input must be an object`);
    else {
      copyString(input, 'user_id', evalCase, 'userId', `${place}session_input.`, problems);
      copyString(input, 'app_name', evalCase, 'appName', `${place}session_input.`, problems);
      const state = pick(input, 'state');
      if (state != null) {
        if (isRecord(state)) evalCase.initialState = state;
        else problems.push(`${place}session_input.state must be an object`);
      }
    }
  }
  copyNumber(raw, 'creation_timestamp', evalCase, 'createdAt', place, problems);
  return evalCase;
}

function readInvocation(value: unknown, caseId: string, index: number, options: FromAdkEvalSetOptions, problems: string[]): EvalTurn {
  const place = `case ${caseId}, invocation ${index}: `;
  if (!isRecord(value)) {
    problems.push(`${place}must be an object`);
    return { user: '' };
  }
  const raw = value;
  const userContent = pick(raw, 'user_content');
  const parts = isRecord(userContent) ? pick(userContent, 'parts') : undefined;
  let user = '';
  if (!Array.isArray(parts)) problems.push(`${place}user_content needs parts`);
  else {
    const texts = textsOf(parts, `${place}user_content`, problems);
    const others = parts.filter(isRecord).filter((part) => Object.entries(part).some(([key, value]) => key !== 'text' && value != null));
    if (others.length) throw new EvalSetError('EVAL_SET_UNSUPPORTED', adkCaseUnsupportedMessage(caseId, `a user message with parts other than text (invocation ${index})`));
    user = texts.map((part) => part.text ?? '').join('');
  }
  const turn: EvalTurn = { user };
  copyString(raw, 'invocation_id', turn, 'id', place, problems);
  const data = pick(raw, 'intermediate_data');
  if (data != null) {
    if (isRecord(data)) turn.tools = { match: 'exact', calls: toolUses(data, place, problems) };
    else problems.push(`${place}intermediate_data must be an object`);
  }
  const finalResponse = pick(raw, 'final_response');
  if (finalResponse != null) {
    const answerParts = isRecord(finalResponse) ? pick(finalResponse, 'parts') : undefined;
    if (!isRecord(finalResponse) || (answerParts != null && !Array.isArray(answerParts))) problems.push(`${place}final_response must be a Content (an object whose parts are an array)`);
    else if (options.answers !== 'ignore') {
      // The non-empty text parts joined with "\n", as ADK's final response evaluator reads one
      // (google/adk-python@076c2ba, src/google/adk/evaluation/final_response_match_v1.py,
      // `_get_text_from_content`); thought parts (`thought: true`) are left out: a model's reasoning is not its answer.
      const text = textsOf(Array.isArray(answerParts) ? answerParts : [], `${place}final_response`, problems)
        .filter((part) => part.thought !== true)
        .map((part) => part.text)
        .filter((value): value is string => typeof value === 'string' && value !== '')
        .join('\n');
      if (text) turn.answer = { exact: text };
    }
  }
  copyNumber(raw, 'creation_timestamp', turn, 'createdAt', place, problems);
  return turn;
}

/** The parts of a `Content`, each an object whose `text` is a string or null (google-genai's `Part`); a problem for each that is not. */
function textsOf(parts: unknown[], place: string, problems: string[]): Array<{ text?: string | null; thought?: unknown }> {
  const read: Array<{ text?: string | null; thought?: unknown }> = [];
  parts.forEach((part, i) => {
    if (!isRecord(part)) return void problems.push(`${place} part ${i} must be an object`);
    const text = pick(part, 'text');
    if (text != null && typeof text !== 'string') return void problems.push(`${place} part ${i}: text must be a string`);
    read.push({ text: text as string | null | undefined, thought: part.thought });
  });
  return read;
}

/**
 * The expected calls: `tool_uses`, or the function calls of `invocation_events` (ADK's other form), as
 * ADK's `get_all_tool_calls` reads them: an event without content, or content without parts, holds none.
 * `args: null` is ADK's call without arguments (google-genai's `FunctionCall.args` is optional, and ADK
 * writes what is unset as `null`): no arguments.
 */
function toolUses(data: Record<string, unknown>, place: string, problems: string[]): ExpectedCall[] {
  const uses = pick(data, 'tool_uses');
  const calls: unknown[] = [];
  if (uses !== undefined) {
    if (Array.isArray(uses)) calls.push(...uses);
    else problems.push(`${place}intermediate_data.tool_uses must be an array`);
  }
  const events = pick(data, 'invocation_events');
  if (events !== undefined && !Array.isArray(events)) problems.push(`${place}intermediate_data.invocation_events must be an array`);
  for (const [e, event] of (Array.isArray(events) ? events : []).entries()) {
    const at = `${place}invocation_events[${e}]`;
    if (!isRecord(event) || typeof event.author !== 'string') {
      problems.push(`${at} must be an object with an author (a string)`);
      continue;
    }
    const content = pick(event, 'content');
    if (content == null) continue;
    const parts = isRecord(content) ? pick(content, 'parts') : undefined;
    if (!isRecord(content) || (parts != null && !Array.isArray(parts))) {
      problems.push(`${at}.content must be a Content (an object whose parts are an array)`);
      continue;
    }
    for (const [i, part] of (Array.isArray(parts) ? parts : []).entries()) {
      if (!isRecord(part)) problems.push(`${at}.content part ${i} must be an object`);
      else {
        const call = pick(part, 'function_call');
        if (call != null) calls.push(call);
      }
    }
  }
  const expected: ExpectedCall[] = [];
  calls.forEach((call, i) => {
    if (!isRecord(call)) return void problems.push(`${place}tool call ${i} must be an object`);
    const name = call.name;
    const args = call.args;
    if (typeof name !== 'string' || name === '') problems.push(`${place}tool call ${i} needs a name`);
    if (args != null && !isRecord(args)) problems.push(`${place}the args of tool call ${i} must be an object`);
    else if (typeof name === 'string' && name !== '') expected.push({ name, args: literalArguments(args ?? {}), exactArgs: true });
  });
  return expected;
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Copies a string field when it is one; anything but a string or null there is a problem (`place` says where). */
function copyString<T extends object>(from: Record<string, unknown>, key: string, to: T, as: keyof T & string, place: string, problems: string[]): void {
  const value = pick(from, key);
  if (typeof value === 'string') (to as Record<string, unknown>)[as] = value;
  else if (value != null) problems.push(`${place}${key} must be a string`);
}

/** Copies a number field when it is one (finite); anything but a number or null there is a problem (`place` says where). */
function copyNumber<T extends object>(from: Record<string, unknown>, key: string, to: T, as: keyof T & string, place: string, problems: string[]): void {
  const value = pick(from, key);
  if (typeof value === 'number' && Number.isFinite(value)) (to as Record<string, unknown>)[as] = value;
  else if (value != null) problems.push(`${place}${key} must be a number (seconds since the epoch)`);
}
