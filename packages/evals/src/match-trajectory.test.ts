import type { ExpectedCall, TrajectoryMatch } from './eval-set';
import type { ActualCall } from './match-call';
import { matchTrajectory } from './match-trajectory';

const made = (name: string, args: Record<string, unknown> | string = {}): ActualCall => ({ name, args, agent: 'shop' });
const lookup = made('lookupOrder', { orderId: 'A-1', verbose: true });
const note = made('note', { text: 'asked' });
const refund = made('refund', { orderId: 'A-1', amount: 20 });

const expectLookup: ExpectedCall = { name: 'lookupOrder', args: { orderId: 'A-1' } };
const expectNote: ExpectedCall = { name: 'note' };
const expectRefund: ExpectedCall = { name: 'refund', args: { amount: 20 } };

function verdict(match: TrajectoryMatch, calls: ExpectedCall[], actual: ActualCall[]): boolean {
  return matchTrajectory({ match, calls }, actual).pass;
}

describe('matchTrajectory: the five modes', () => {
  // Each row: expected calls, actual calls, then the verdict of exact, inOrder, anyOrder, superset, subset.
  const rows: Array<[string, ExpectedCall[], ActualCall[], [boolean, boolean, boolean, boolean, boolean]]> = [
    ['the same calls in order', [expectLookup, expectRefund], [lookup, refund], [true, true, true, true, true]],
    ['the same calls swapped', [expectLookup, expectRefund], [refund, lookup], [false, false, true, true, true]],
    ['an extra call between', [expectLookup, expectRefund], [lookup, note, refund], [false, true, false, true, false]],
    ['an expected call missing', [expectLookup, expectRefund], [lookup], [false, false, false, false, true]],
    ['no calls, none expected', [], [], [true, true, true, true, true]],
    ['a call, none expected', [], [note], [false, true, false, true, false]],
    ['a call twice, expected once', [expectLookup], [lookup, lookup], [false, true, false, true, false]],
  ];
  it.each(rows)('%s', (_name, calls, actual, verdicts) => {
    const modes: TrajectoryMatch[] = ['exact', 'inOrder', 'anyOrder', 'superset', 'subset'];
    expect(modes.map((mode) => verdict(mode, calls, actual))).toEqual(verdicts);
  });

  it('defaults to exact', () => {
    expect(matchTrajectory({ calls: [expectLookup] }, [lookup, note])).toMatchObject({ pass: false, match: 'exact' });
  });

  it('finds a matching when matchers overlap (a greedy pairing would fail)', () => {
    // The first expected call fits both actual calls, the second only the first: only one pairing works.
    const anyLookup: ExpectedCall = { name: 'lookupOrder' };
    const a1: ExpectedCall = { name: 'lookupOrder', args: { orderId: 'A-1' } };
    const other = made('lookupOrder', { orderId: 'B-2' });
    expect(verdict('anyOrder', [anyLookup, a1], [lookup, other])).toBe(true);
    expect(verdict('inOrder', [anyLookup, a1], [other, lookup])).toBe(true);
  });
});

describe('matchTrajectory: arguments', () => {
  const one = (call: ExpectedCall, actual: ActualCall) => matchTrajectory({ calls: [call] }, [actual]);

  it('checks only the listed arguments, unless exactArgs', () => {
    expect(one({ name: 'lookupOrder', args: { orderId: 'A-1' } }, lookup).pass).toBe(true);
    expect(one({ name: 'lookupOrder', args: { orderId: 'A-1' }, exactArgs: true }, lookup).diff).toEqual([
      { kind: 'mismatch', expected: 'lookupOrder(orderId: "A-1")', actual: 'lookupOrder({"orderId":"A-1","verbose":true})', problems: ['args.verbose is not expected'] },
    ]);
    expect(one({ name: 'note' }, note).pass).toBe(true);
  });

  it('compares plain values deeply', () => {
    const call = made('tag', { tags: ['a', { b: 1 }] });
    expect(one({ name: 'tag', args: { tags: ['a', { b: 1 }] } }, call).pass).toBe(true);
    expect(one({ name: 'tag', args: { tags: ['a', { b: 2 }] } }, call).diff[0].problems).toEqual(['args.tags: ["a",{"b":1}] does not match ["a",{"b":2}]']);
  });

  it('writes -0 and a nested RegExp as such in the diff, not as JSON would', () => {
    expect(one({ name: 'refund', args: { amount: -0 } }, made('refund', { amount: 1 })).diff[0].problems).toEqual(['args.amount: 1 does not match -0']);
    expect(one({ name: 'tag', args: { tags: [/a/] as unknown as string[] } }, made('tag', { tags: ['a'] })).diff[0].problems).toEqual(['args.tags: ["a"] does not match [/a/]']);
  });

  it('takes a RegExp, a JSON pattern, a function and $equals', () => {
    expect(one({ name: 'lookupOrder', args: { orderId: /^a-\d$/i } }, lookup).pass).toBe(true);
    expect(one({ name: 'lookupOrder', args: { orderId: { $pattern: '^A-', $flags: '' } } }, lookup).pass).toBe(true);
    expect(one({ name: 'refund', args: { amount: (v) => typeof v === 'number' && v < 50 } }, refund).pass).toBe(true);
    expect(one({ name: 'x', args: { q: { $equals: { $pattern: 'lit' } } } }, made('x', { q: { $pattern: 'lit' } })).pass).toBe(true);
    // A pattern never matches a value that is not a string.
    expect(one({ name: 'refund', args: { amount: /20/ } }, refund).pass).toBe(false);
    function underTen(value: unknown) {
      return typeof value === 'number' && value < 10;
    }
    expect(one({ name: 'refund', args: { amount: underTen, orderId: /^B/ } }, refund).diff[0].problems).toEqual([
      'args.amount: 20 does not match the function underTen',
      'args.orderId: "A-1" does not match /^B/',
    ]);
  });

  it('compares values as JSON does: -0 equals 0, key order and prototypes do not matter', () => {
    expect(one({ name: 'refund', args: { amount: 0 } }, made('refund', { amount: -0 })).pass).toBe(true);
    expect(one({ name: 'refund', args: { amount: { $equals: [-0] } } }, made('refund', { amount: [0] })).pass).toBe(true);
    expect(one({ name: 'refund', args: { q: { a: 1, b: 2 } } }, made('refund', { q: Object.assign(Object.create(null), { b: 2, a: 1 }) })).pass).toBe(true);
    expect(one({ name: 'refund', args: { q: { a: 1 } } }, made('refund', { q: { a: 1, b: undefined } })).pass).toBe(false);
  });

  it('exactArgs without args: no arguments at all', () => {
    expect(one({ name: 'refund', exactArgs: true }, made('refund', {})).pass).toBe(true);
    expect(one({ name: 'refund', exactArgs: true }, made('refund', { amount: 20 })).diff[0]).toMatchObject({ expected: 'refund()', problems: ['args.amount is not expected'] });
  });

  it('says when an argument is missing, or the arguments are not an object', () => {
    expect(one({ name: 'refund', args: { reason: 'late' } }, refund).diff[0].problems).toEqual(['args.reason is missing (expected "late")']);
    expect(one({ name: 'refund', args: { amount: 20 } }, made('refund', '{"amount": 20')).diff[0].problems).toEqual(['its arguments are not a JSON object (the executor refused them as malformed; no tool ran): {"amount": 20']);
  });
});

describe('matchTrajectory: the diff', () => {
  it('aligns in order: matches, a changed call, a missing one and an unexpected one', () => {
    const result = matchTrajectory(
      { match: 'exact', calls: [expectLookup, { name: 'refund', args: { amount: 99 } }, expectNote] },
      [lookup, refund, made('cancel', { orderId: 'A-1' })],
    );
    expect(result.pass).toBe(false);
    expect(result.diff).toEqual([
      { kind: 'match', expected: 'lookupOrder(orderId: "A-1", …)', actual: 'lookupOrder({"orderId":"A-1","verbose":true})' },
      { kind: 'mismatch', expected: 'refund(amount: 99, …)', actual: 'refund({"orderId":"A-1","amount":20})', problems: ['args.amount: 20 does not match 99'] },
      { kind: 'missing', expected: 'note(…)' },
      { kind: 'unexpected', actual: 'cancel({"orderId":"A-1"})' },
    ]);
  });

  it('shows calls inOrder allows as extras, and passes', () => {
    const result = matchTrajectory({ match: 'inOrder', calls: [expectLookup, expectRefund] }, [note, lookup, refund]);
    expect(result).toEqual({
      pass: true,
      match: 'inOrder',
      diff: [
        { kind: 'extra', actual: 'note({"text":"asked"})' },
        { kind: 'match', expected: 'lookupOrder(orderId: "A-1", …)', actual: 'lookupOrder({"orderId":"A-1","verbose":true})' },
        { kind: 'match', expected: 'refund(amount: 20, …)', actual: 'refund({"orderId":"A-1","amount":20})' },
      ],
    });
  });

  it('unordered modes: superset shows extras, subset shows expected calls not made', () => {
    expect(matchTrajectory({ match: 'superset', calls: [expectRefund] }, [note, refund]).diff.map((l) => l.kind)).toEqual(['extra', 'match']);
    expect(matchTrajectory({ match: 'subset', calls: [expectLookup, expectRefund] }, [refund]).diff).toEqual([
      { kind: 'match', expected: 'refund(amount: 20, …)', actual: 'refund({"orderId":"A-1","amount":20})' },
      { kind: 'notCalled', expected: 'lookupOrder(orderId: "A-1", …)' },
    ]);
    const anyOrder = matchTrajectory({ match: 'anyOrder', calls: [expectLookup, { name: 'refund', args: { amount: 5 } }] }, [refund, note, lookup]);
    expect(anyOrder.pass).toBe(false);
    expect(anyOrder.diff.map((l) => l.kind)).toEqual(['mismatch', 'unexpected', 'match']);
  });
});
