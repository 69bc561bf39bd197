import type { TrajectoryExpectation, TrajectoryMatch } from './eval-set';
import { type ActualCall, callMismatch, describeActualCall, describeExpectedCall } from './match-call';

/**
 * One line of a trajectory diff:
 * - `match`: an expected call and the call that matched it;
 * - `mismatch`: an expected call and a call of the same tool whose arguments differ (`problems` says how);
 * - `missing`: an expected call nothing matched;
 * - `unexpected`: a call the mode does not allow;
 * - `extra`: a call the mode allows besides the expected ones (`inOrder`, `superset`);
 * - `notCalled`: an expected call that was not made, which `subset` allows.
 */
export interface TrajectoryDiffLine {
  /** What the line says (see the interface). */
  kind: 'match' | 'mismatch' | 'missing' | 'unexpected' | 'extra' | 'notCalled';
  /** The expected call, as written in the report (`lookupOrder(orderId: "A-1")`). */
  expected?: string;
  /** The call made, as written in the report (`lookupOrder({"orderId":"A-1"})`). */
  actual?: string;
  /** Why a `mismatch` does not match. */
  problems?: string[];
}

/** How a turn's calls compared with its {@link TrajectoryExpectation}. */
export interface TrajectoryResult {
  /** The calls satisfy the expectation. */
  pass: boolean;
  /** The mode used. */
  match: TrajectoryMatch;
  /**
   * The diff. `exact`, `inOrder`: the aligned calls in order; between two aligned pairs, the expected calls
   * left there (changed or missing, in their order), then the calls made there that matched none. The
   * unordered modes: the calls in the order made, then the expected calls nothing matched.
   */
  diff: TrajectoryDiffLine[];
}

/** Compares the calls a turn made with what was expected of it, in the expectation's mode (default `exact`). */
export function matchTrajectory(expectation: TrajectoryExpectation, actual: readonly ActualCall[]): TrajectoryResult {
  const match = expectation.match ?? 'exact';
  return match === 'exact' || match === 'inOrder' ? ordered(match, expectation, actual) : unordered(match, expectation, actual);
}

/** `exact` and `inOrder`: the longest in-order alignment of expected and actual calls, gaps shown as differences. */
function ordered(match: 'exact' | 'inOrder', expectation: TrajectoryExpectation, actual: readonly ActualCall[]): TrajectoryResult {
  const expected = expectation.calls;
  const n = expected.length;
  const m = actual.length;
  const fits = expected.map((call) => actual.map((made) => callMismatch(call, made).length === 0));
  // best[i][j]: the most matches aligning expected[i..] with actual[j..] in order.
  const best = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) best[i][j] = Math.max(best[i + 1][j], best[i][j + 1], fits[i][j] ? best[i + 1][j + 1] + 1 : 0);
  }
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (fits[i][j] && best[i][j] === best[i + 1][j + 1] + 1) pairs.push([i++, j++]);
    else if (best[i + 1][j] >= best[i][j + 1]) i++;
    else j++;
  }
  const diff: TrajectoryDiffLine[] = [];
  let nextExpected = 0;
  let nextActual = 0;
  for (const [i, j] of [...pairs, [n, m] as [number, number]]) {
    diff.push(...gap(match, expected.slice(nextExpected, i), actual.slice(nextActual, j)));
    if (i < n) diff.push({ kind: 'match', expected: describeExpectedCall(expected[i]), actual: describeActualCall(actual[j]) });
    nextExpected = i + 1;
    nextActual = j + 1;
  }
  const pass = pairs.length === n && (match === 'inOrder' || m === n);
  return { pass, match, diff };
}

/** The calls between two aligned pairs: same-tool pairs shown as mismatches, the rest as missing and unexpected (or extra). */
function gap(match: TrajectoryMatch, expected: TrajectoryExpectation['calls'], actual: readonly ActualCall[]): TrajectoryDiffLine[] {
  const lines: TrajectoryDiffLine[] = [];
  const used = new Set<number>();
  const paired = new Map<number, number>();
  expected.forEach((call, i) => {
    const j = actual.findIndex((made, k) => !used.has(k) && made.name === call.name);
    if (j >= 0) {
      used.add(j);
      paired.set(j, i);
    }
  });
  const pairedActual = new Map([...paired].map(([j, i]) => [i, j]));
  // Expected calls in their order (a changed call where it was expected), then the calls left over.
  expected.forEach((call, i) => {
    const j = pairedActual.get(i);
    if (j === undefined) lines.push({ kind: 'missing', expected: describeExpectedCall(call) });
    else lines.push({ kind: 'mismatch', expected: describeExpectedCall(call), actual: describeActualCall(actual[j]), problems: callMismatch(call, actual[j]) });
  });
  actual.forEach((made, j) => {
    if (!paired.has(j)) lines.push({ kind: match === 'exact' ? 'unexpected' : 'extra', actual: describeActualCall(made) });
  });
  return lines;
}

/** `anyOrder`, `superset`, `subset`: a maximum matching of expected to actual calls, order ignored. */
function unordered(match: 'anyOrder' | 'superset' | 'subset', expectation: TrajectoryExpectation, actual: readonly ActualCall[]): TrajectoryResult {
  const expected = expectation.calls;
  const fits = expected.map((call) => actual.map((made) => callMismatch(call, made).length === 0));
  const matchedTo = maximumMatching(fits, actual.length); // actual index → expected index
  const matchedExpected = new Set(matchedTo.filter((i) => i >= 0));
  const leftover = expected.map((_, i) => i).filter((i) => !matchedExpected.has(i));
  const diff: TrajectoryDiffLine[] = [];
  actual.forEach((made, j) => {
    const i = matchedTo[j];
    if (i >= 0) return void diff.push({ kind: 'match', expected: describeExpectedCall(expected[i]), actual: describeActualCall(made) });
    const same = leftover.findIndex((k) => expected[k].name === made.name);
    if (same >= 0) {
      const [k] = leftover.splice(same, 1);
      return void diff.push({ kind: 'mismatch', expected: describeExpectedCall(expected[k]), actual: describeActualCall(made), problems: callMismatch(expected[k], made) });
    }
    diff.push({ kind: match === 'superset' ? 'extra' : 'unexpected', actual: describeActualCall(made) });
  });
  for (const i of leftover) diff.push({ kind: match === 'subset' ? 'notCalled' : 'missing', expected: describeExpectedCall(expected[i]) });
  const matched = matchedExpected.size;
  const pass = match === 'anyOrder' ? matched === expected.length && matched === actual.length : match === 'superset' ? matched === expected.length : matched === actual.length;
  return { pass, match, diff };
}

/** Kuhn's augmenting paths: for each actual call, the expected call it is matched to (-1 for none), as many pairs as possible. */
function maximumMatching(fits: boolean[][], actualCount: number): number[] {
  const matchedTo = new Array<number>(actualCount).fill(-1);
  const augment = (i: number, seen: Set<number>): boolean => {
    for (let j = 0; j < actualCount; j++) {
      if (!fits[i][j] || seen.has(j)) continue;
      seen.add(j);
      if (matchedTo[j] < 0 || augment(matchedTo[j], seen)) {
        matchedTo[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < fits.length; i++) augment(i, new Set());
  return matchedTo;
}
