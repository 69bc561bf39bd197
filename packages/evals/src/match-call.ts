import { isDeepStrictEqual } from 'node:util';
import type { ArgumentMatcher, ExpectedCall } from './eval-set';

/** A call the agent made, as the report shows it. */
export interface ActualCall {
  /** The tool's name. */
  name: string;
  /** Its arguments (the model's raw text when they were not a JSON object). */
  args: Record<string, unknown> | string;
  /** The agent that made it. */
  agent: string;
}

/** Why a call does not match an expected one: each argument that differs, as `args.city: "Lyon" does not match /^Par/`. */
export type CallMismatch = string[];

/** Whether `actual` matches `expected`: an empty list when it does, else the reasons (a different name is one reason). */
export function callMismatch(expected: ExpectedCall, actual: ActualCall): CallMismatch {
  if (expected.name !== actual.name) return [`the tool is ${actual.name}, not ${expected.name}`];
  if (!expected.args && !expected.exactArgs) return [];
  if (typeof actual.args === 'string') return [`its arguments are not a JSON object: ${actual.args}`];
  const problems: string[] = [];
  const listed = expected.args ?? {};
  for (const [name, matcher] of Object.entries(listed)) {
    if (!(name in actual.args)) problems.push(`args.${name} is missing (expected ${describeMatcher(matcher)})`);
    else if (!argumentMatches(matcher, actual.args[name])) problems.push(`args.${name}: ${show(actual.args[name])} does not match ${describeMatcher(matcher)}`);
  }
  if (expected.exactArgs) {
    for (const name of Object.keys(actual.args)) if (!(name in listed)) problems.push(`args.${name} is not expected`);
  }
  return problems;
}

/** Whether one argument's value satisfies its matcher (see {@link ArgumentMatcher}). */
export function argumentMatches(matcher: ArgumentMatcher, value: unknown): boolean {
  if (typeof matcher === 'function') return matcher(value) === true;
  if (matcher instanceof RegExp) return typeof value === 'string' && new RegExp(matcher.source, matcher.flags.replace('g', '')).test(value);
  if (isPatternMatcher(matcher)) return typeof value === 'string' && new RegExp(matcher.$pattern, matcher.$flags).test(value);
  if (isEqualsMatcher(matcher)) return isDeepStrictEqual(matcher.$equals, value);
  return isDeepStrictEqual(matcher, value);
}

/** A matcher as the report writes it: JSON for a value, `/…/` for a pattern, `a function (name)` for a predicate. */
export function describeMatcher(matcher: ArgumentMatcher): string {
  if (typeof matcher === 'function') return matcher.name ? `the function ${matcher.name}` : 'a function';
  if (matcher instanceof RegExp) return String(matcher);
  if (isPatternMatcher(matcher)) return `/${matcher.$pattern}/${matcher.$flags ?? ''}`;
  if (isEqualsMatcher(matcher)) return show(matcher.$equals);
  return show(matcher);
}

/** An expected call as the report writes it: `name(city: /^Par/, days: 3)`, `name(…)` when its arguments are not checked. */
export function describeExpectedCall(call: ExpectedCall): string {
  if (!call.args) return call.exactArgs ? `${call.name}()` : `${call.name}(…)`;
  const args = Object.entries(call.args).map(([name, matcher]) => `${name}: ${describeMatcher(matcher)}`);
  return `${call.name}(${args.join(', ')}${call.exactArgs ? '' : args.length ? ', …' : '…'})`;
}

/** An actual call as the report writes it: `name({"city":"Paris"})`. */
export function describeActualCall(call: ActualCall): string {
  return `${call.name}(${typeof call.args === 'string' ? call.args : JSON.stringify(call.args)})`;
}

function isPatternMatcher(matcher: ArgumentMatcher): matcher is { $pattern: string; $flags?: string } {
  return typeof matcher === 'object' && matcher !== null && !Array.isArray(matcher) && typeof (matcher as { $pattern?: unknown }).$pattern === 'string';
}

function isEqualsMatcher(matcher: ArgumentMatcher): matcher is { $equals: never } {
  return typeof matcher === 'object' && matcher !== null && !Array.isArray(matcher) && '$equals' in matcher;
}

function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
