import { REDACTED, isSecretName, redactSecretText, redactSecrets } from '@toolsmith/core/internal';
import type { ArgumentMatcher, ExpectedCall } from './eval-set';
import { jsonEqual } from './json-equal';
import { thrownMessage } from '@toolsmith/core';
import type { CallFailure } from './call-failure';

/** A call the agent made, as the report shows it. */
export interface ActualCall {
  /** The tool's name. */
  name: string;
  /**
   * Its arguments as the executor read them (JSON text parsed, as `runEvalSet` reports them); the model's
   * raw text when the executor refused it as malformed (then no tool ran).
   */
  args: Record<string, unknown> | string;
  /** The agent that made it. */
  agent: string;
  /**
   * The call failed: its response is an error (invalid arguments, the tool threw, an unknown tool, a
   * refused confirmation, …), so the tool did not do what was asked. Absent when it succeeded (or waits).
   */
  error?: CallFailure;
}

/** Why a call does not match an expected one: each argument that differs, as `args.city: "Lyon" does not match /^Par/`. */
export type CallMismatch = string[];

/** Whether `actual` matches `expected`: an empty list when it does, else the reasons (a different name is one reason). */
export function callMismatch(expected: ExpectedCall, actual: ActualCall): CallMismatch {
  if (expected.name !== actual.name) return [`the tool is ${actual.name}, not ${expected.name}`];
  if (expected.argsText !== undefined) {
    if (typeof actual.args !== 'string') return [`its arguments are ${show(redactSecrets(actual.args))}, not the malformed text ${redactSecretText(expected.argsText)}`];
    return actual.args === expected.argsText ? [] : [`its arguments text ${redactSecretText(actual.args)} is not ${redactSecretText(expected.argsText)}`];
  }
  const problems: string[] = [];
  if (actual.error && !expected.failed) problems.push(`called ${actual.name} but it failed: ${actual.error.code}: ${redactSecretText(actual.error.message)}`);
  if (!actual.error && expected.failed) problems.push(`called ${actual.name} and it did not fail`);
  if (!expected.args && !expected.exactArgs) return problems;
  if (typeof actual.args === 'string') return [`its arguments are not a JSON object (the executor refused them as malformed; no tool ran): ${redactSecretText(actual.args)}`];
  const listed = expected.args ?? {};
  for (const [name, matcher] of Object.entries(listed)) {
    if (!(name in actual.args)) problems.push(`args.${name} is missing (expected ${isSecretName(name) ? REDACTED : describeMatcher(matcher)})`);
    else {
      const verdict = typeof matcher === 'function' ? functionVerdict(matcher, actual.args[name]) : argumentMatches(matcher, actual.args[name]);
      if (typeof verdict === 'string') problems.push(`args.${name}: ${describeMatcher(matcher)} threw: ${redactSecretText(verdict)}`);
      else if (!verdict) {
        problems.push(isSecretName(name) ? `args.${name}: ${REDACTED} does not match ${REDACTED}` : `args.${name}: ${show(redactSecrets(actual.args[name]))} does not match ${describeMatcher(matcher)}`);
      }
    }
  }
  if (expected.exactArgs) {
    for (const name of Object.keys(actual.args)) if (!(name in listed)) problems.push(`args.${name} is not expected`);
  }
  return problems;
}

/** A function matcher's verdict on `value`: `true` when it matches, `false` when not, the message of what it threw when it threw. */
function functionVerdict(matcher: (value: unknown) => boolean, value: unknown): boolean | string {
  try {
    return matcher(value) === true;
  } catch (thrown) {
    return thrownMessage(thrown);
  }
}

/** Whether one argument's value satisfies its matcher (see {@link ArgumentMatcher}); a function that throws does not match. */
export function argumentMatches(matcher: ArgumentMatcher, value: unknown): boolean {
  if (typeof matcher === 'function') return functionVerdict(matcher, value) === true;
  if (matcher instanceof RegExp) return typeof value === 'string' && new RegExp(matcher.source, matcher.flags.replace('g', '')).test(value);
  if (isPatternMatcher(matcher)) return typeof value === 'string' && new RegExp(matcher.$pattern, matcher.$flags).test(value);
  if (isEqualsMatcher(matcher)) return jsonEqual(matcher.$equals, value);
  return jsonEqual(matcher, value);
}

/** A matcher as the report writes it: JSON for a value, `/…/` for a pattern, `a function (name)` for a predicate. */
export function describeMatcher(matcher: ArgumentMatcher): string {
  if (typeof matcher === 'function') return matcher.name ? `the function ${matcher.name}` : 'a function';
  if (matcher instanceof RegExp) return String(matcher);
  if (isPatternMatcher(matcher)) return `/${matcher.$pattern}/${matcher.$flags ?? ''}`;
  if (isEqualsMatcher(matcher)) return show(redactSecrets(matcher.$equals));
  return show(redactSecrets(matcher));
}

/**
 * An expected call as the report writes it: `name(city: /^Par/, days: 3)`, `name(…)` when its arguments
 * are not checked, followed by ` failing` when it is expected to fail.
 */
export function describeExpectedCall(call: ExpectedCall): string {
  return `${describeArguments(call)}${call.failed ? ' failing' : ''}`;
}

function describeArguments(call: ExpectedCall): string {
  if (call.argsText !== undefined) return `${call.name}(${redactSecretText(call.argsText)})`;
  if (!call.args) return call.exactArgs ? `${call.name}()` : `${call.name}(…)`;
  const args = Object.entries(call.args).map(([name, matcher]) => `${name}: ${isSecretName(name) ? REDACTED : describeMatcher(matcher)}`);
  return `${call.name}(${args.join(', ')}${call.exactArgs ? '' : args.length ? ', …' : '…'})`;
}

/** An actual call as the report writes it: `name({"city":"Paris"})`. */
export function describeActualCall(call: ActualCall): string {
  return `${call.name}(${typeof call.args === 'string' ? redactSecretText(call.args) : JSON.stringify(redactSecrets(call.args))})`;
}

function isPatternMatcher(matcher: ArgumentMatcher): matcher is { $pattern: string; $flags?: string } {
  return typeof matcher === 'object' && matcher !== null && !Array.isArray(matcher) && typeof (matcher as { $pattern?: unknown }).$pattern === 'string';
}

function isEqualsMatcher(matcher: ArgumentMatcher): matcher is { $equals: never } {
  return typeof matcher === 'object' && matcher !== null && !Array.isArray(matcher) && '$equals' in matcher;
}

/** A value as JSON, except what JSON would hide: `-0`, `NaN`, a `RegExp` (`/…/`) and `undefined` are written as such. */
function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value instanceof RegExp) return String(value);
  if (Array.isArray(value)) return `[${value.map(show).join(',')}]`;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${show(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? String(value);
}
