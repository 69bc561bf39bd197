import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Content, JsonSchema, JsonValue } from '@toolsmith/core';

/**
 * What one argument of an expected call must be: a plain JSON value (deep-equal), a `RegExp` (a string
 * argument it matches), a function (true means it matches), or, in JSON files, `{ "$pattern": "…",
 * "$flags"?: "i" }` or `{ "$equals": value }` (the value itself, for an object that has those keys).
 */
export type ArgumentMatcher = JsonValue | RegExp | ((value: unknown) => boolean) | { $pattern: string; $flags?: string } | { $equals: JsonValue };

/** One tool call a turn is expected to make. */
export interface ExpectedCall {
  /** The tool's name, as the model calls it. */
  name: string;
  /** The arguments to check, by name; an argument not listed is not checked (see `exactArgs`). Absent: any arguments. */
  args?: Record<string, ArgumentMatcher>;
  /** `true`: the call may have no argument besides those in `args` (without `args`: no argument at all). Default `false`. */
  exactArgs?: boolean;
  /**
   * Instead of `args`: the arguments are this text, which is not a JSON object (what `evalCaseFromSession`
   * records of a call whose arguments text the executor refused as malformed, so no tool ran): the call
   * matches only a call sent with the same text.
   */
  argsText?: string;
  /**
   * `true`: the call is expected to fail (its response is an error: invalid arguments, the tool threw, a
   * refused confirmation, …). Default `false`: a call that failed does not match, as its tool did not do
   * what was asked. (An `argsText` call failed by nature and matches either way.)
   */
  failed?: boolean;
}

/**
 * How a turn's calls are compared with the expected ones:
 * - `exact`: the same calls in the same order, and no other;
 * - `inOrder`: the expected calls in this order, other calls allowed before, between and after them;
 * - `anyOrder`: the same calls in any order, and no other;
 * - `superset`: every expected call, in any order, other calls allowed;
 * - `subset`: only expected calls (each at most once), some may be missing.
 */
export type TrajectoryMatch = 'exact' | 'inOrder' | 'anyOrder' | 'superset' | 'subset';

/** The tool calls a turn is expected to make. */
export interface TrajectoryExpectation {
  /** How the calls are compared; default `exact`. */
  match?: TrajectoryMatch;
  /** The expected calls, in order. */
  calls: ExpectedCall[];
}

/**
 * What a turn's final answer must be, exactly one of these (the type refuses two at once):
 * - `{ exact }`: the answer's text, equal (leading and trailing white space ignored);
 * - `{ contains }`: the text contains this string (each of these strings), case-sensitive;
 * - `{ pattern, flags? }`: the text matches this regular expression;
 * - `{ schema }`: the answer is JSON valid against this JSON Schema (draft 2020-12; 2019-09 or draft-07 by its `$schema`) or Standard Schema:
 *   the agent's structured output (`event.output`, with `outputSchema`), else the text parsed as JSON;
 * - `{ judge }`: a judge model (the `judgeModel` option) says the answer meets this criterion.
 */
export type AnswerExpectation =
  | { exact: string; contains?: never; pattern?: never; flags?: never; schema?: never; judge?: never }
  | { contains: string | string[]; exact?: never; pattern?: never; flags?: never; schema?: never; judge?: never }
  | { pattern: string | RegExp; flags?: string; exact?: never; contains?: never; schema?: never; judge?: never }
  | { schema: JsonSchema | StandardSchemaV1; exact?: never; contains?: never; pattern?: never; flags?: never; judge?: never }
  | { judge: string; exact?: never; contains?: never; pattern?: never; flags?: never; schema?: never };

/** One turn of a case: a user message and what the agent is expected to do with it. */
export interface EvalTurn {
  /** The user's message: text, or a whole `Content` (files, several parts). */
  user: string | Content;
  /**
   * The tool calls expected in answer to it (the calls of every agent the runner runs in the turn, in the
   * order they were made; an `AgentTool`'s agent runs inside its call, and its own calls are not listed); absent: not checked.
   */
  tools?: TrajectoryExpectation;
  /** What the turn's final answer must be; absent: not checked. */
  answer?: AnswerExpectation;
  /** An id for the turn (ADK's `invocation_id`), kept when reading and writing ADK files. */
  id?: string;
  /** When the turn was recorded, in seconds since the epoch (ADK's `creation_timestamp`). */
  createdAt?: number;
}

/** One case: a conversation run from a new session, turn by turn. */
export interface EvalCase {
  /** The case's id, unique in its set. */
  id: string;
  /** The turns, in order. */
  turns: EvalTurn[];
  /** Session state the case starts from. Default `{}`. */
  initialState?: Record<string, unknown>;
  /** The user the sessions belong to. Default `eval-user`. */
  userId?: string;
  /** How many times the case is run, from 1 to `MAX_EVAL_RUNS` (1000); default the set's `runs`, else 1. */
  runs?: number;
  /** The share of runs (0–1) that must pass for the case to pass; default the set's `threshold`, else 1. */
  threshold?: number;
  /** When the case was created, in seconds since the epoch (ADK's `creation_timestamp`). */
  createdAt?: number;
  /** ADK's `session_input.app_name`, kept when reading and writing ADK files; not used to run (the runner's `appName` is). */
  appName?: string;
}

/** An evaluation set: cases run against one agent. */
export interface EvalSet {
  /** The set's id. */
  id: string;
  /** A name for people. */
  name?: string;
  /** What the set checks. */
  description?: string;
  /** The cases. */
  cases: EvalCase[];
  /** Runs of each case that does not say, from 1 to `MAX_EVAL_RUNS` (1000); default 1. */
  runs?: number;
  /** Pass threshold of each case that does not say (0–1); default 1. */
  threshold?: number;
  /** When the set was created, in seconds since the epoch (ADK's `creation_timestamp`). */
  createdAt?: number;
}
