import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema, Model } from '@toolsmith/core';
import { reportableError, thrownMessage } from '@toolsmith/core';
import { compileAnswerSchema } from './compile-answer-schema';
import type { AnswerExpectation } from './eval-set';
import { EvalSetError } from './eval-set-error';
import { judgeAnswer } from './judge-answer';
import { invalidEvalSetMessage, judgeMissingMessage, patternFlagsProblem } from './messages';
import { stripFence } from './strip-fence';

/** A turn's final answer, as the agent gave it. */
export interface ActualAnswer {
  /** The text of the turn's final response (its text parts joined); absent when the turn ended without one. */
  text?: string;
  /** The validated structured output (`event.output`) of an agent with an `outputSchema`. */
  output?: unknown;
}

/** How a turn's answer compared with its {@link AnswerExpectation}. */
export interface AnswerResult {
  /** The answer satisfies the expectation. */
  pass: boolean;
  /** The expectation, as the report writes it (`contains "refund"`, `judge: is polite`). */
  expected: string;
  /** Why it failed (or, for a judge, the judge's reason either way). */
  detail?: string;
}

/**
 * Checks a turn's answer; `judge` expectations ask `judgeModel`.
 *
 * @throws EvalSetError `EVAL_JUDGE_MISSING` for a `judge` expectation without `judgeModel`; `EVAL_SET_INVALID`
 *   for a JSON Schema that cannot be compiled (an unsupported `$schema`, …), or `flags` given with a `RegExp` pattern.
 */
export async function matchAnswer(
  expectation: AnswerExpectation,
  answer: ActualAnswer,
  context: { judgeModel?: Model; userText: string; signal?: AbortSignal },
): Promise<AnswerResult> {
  const text = answer.text;
  if (expectation.exact !== undefined) {
    const expected = `exact ${JSON.stringify(expectation.exact)}`;
    if (text === undefined) return { pass: false, expected, detail: 'the turn gave no answer' };
    return text.trim() === expectation.exact.trim() ? { pass: true, expected } : { pass: false, expected, detail: `the answer is ${JSON.stringify(text)}` };
  }
  if (expectation.contains !== undefined) {
    const wanted = Array.isArray(expectation.contains) ? expectation.contains : [expectation.contains];
    const expected = `contains ${wanted.map((w) => JSON.stringify(w)).join(' and ')}`;
    if (text === undefined) return { pass: false, expected, detail: 'the turn gave no answer' };
    const absent = wanted.filter((w) => !text.includes(w));
    return absent.length === 0 ? { pass: true, expected } : { pass: false, expected, detail: `${absent.map((w) => JSON.stringify(w)).join(', ')} not in ${JSON.stringify(text)}` };
  }
  if (expectation.pattern !== undefined) {
    if (expectation.pattern instanceof RegExp && expectation.flags !== undefined) throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage('The answer expectation', [`flags ${patternFlagsProblem()}`]));
    const pattern = typeof expectation.pattern === 'string' ? new RegExp(expectation.pattern, expectation.flags) : expectation.pattern;
    const expected = `matches ${String(pattern)}`;
    if (text === undefined) return { pass: false, expected, detail: 'the turn gave no answer' };
    return new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text) ? { pass: true, expected } : { pass: false, expected, detail: `the answer is ${JSON.stringify(text)}` };
  }
  if (expectation.schema !== undefined) return matchSchema(expectation.schema, answer);
  const expected = `judge: ${expectation.judge}`;
  if (!context.judgeModel) throw new EvalSetError('EVAL_JUDGE_MISSING', judgeMissingMessage([]));
  if (text === undefined) return { pass: false, expected, detail: 'the turn gave no answer' };
  try {
    const verdict = await judgeAnswer(context.judgeModel, { criterion: expectation.judge, question: context.userText, answer: text, signal: context.signal });
    return { pass: verdict.pass, expected, detail: verdict.reason };
  } catch (error) {
    const reported = reportableError(error);
    const reason = reported ? `${reported.code}: ${reported.message}` : thrownMessage(error);
    return { pass: false, expected, detail: `the judge model failed: ${reason}` };
  }
}

async function matchSchema(schema: JsonSchema | StandardSchemaV1, answer: ActualAnswer): Promise<AnswerResult> {
  const expected = 'valid against the schema';
  let value = answer.output;
  if (value === undefined) {
    if (answer.text === undefined) return { pass: false, expected, detail: 'the turn gave no answer' };
    try {
      value = JSON.parse(stripFence(answer.text));
    } catch {
      return { pass: false, expected, detail: `the answer is not JSON: ${JSON.stringify(answer.text)}` };
    }
  }
  if (isStandardSchema(schema)) {
    const result = await schema['~standard'].validate(value);
    if (!result.issues) return { pass: true, expected };
    const issues = result.issues.map((issue) => `${issue.path?.map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.') || '(root)'}: ${issue.message}`);
    return { pass: false, expected, detail: issues.join('; ') };
  }
  const validate = compileAnswerSchema(schema);
  if (validate(value)) return { pass: true, expected };
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  return { pass: false, expected, detail: problems.join('; ') };
}

function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  return (typeof schema === 'object' || typeof schema === 'function') && schema !== null && '~standard' in schema;
}
