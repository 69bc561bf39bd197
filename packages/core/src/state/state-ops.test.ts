import { StateConflictError } from '../errors/state-conflict-error';
import { createEventActions } from './event-actions';
import { State } from './state';
import { resolveStateOps } from './state-ops';

const stateOn = (base: Record<string, unknown>) => {
  const actions = createEventActions();
  return { actions, state: new State(base, actions.stateDelta, actions) };
};

describe('State.increment', () => {
  it('records an increment the store applies, and returns the value this call sees', () => {
    const { actions, state } = stateOn({ 'app:n': 4 });
    expect(state.increment('app:n')).toBe(5);
    expect(state.increment('app:n', 2)).toBe(7);
    expect(state.increment('user:new', -1)).toBe(-1);
    expect(state.get('app:n')).toBe(7);
    expect(actions.stateDelta).toEqual({ 'app:n': 7, 'user:new': -1 });
    expect(actions.stateOps).toEqual({ 'app:n': { op: 'increment', by: 3 }, 'user:new': { op: 'increment', by: -1 } });
  });

  it('stays a plain write after a plain write of this call, and a temp: key records no update', () => {
    const { actions, state } = stateOn({});
    state.set('n', 10);
    expect(state.increment('n')).toBe(11);
    state.increment('temp:t');
    expect(actions.stateDelta).toEqual({ n: 11, 'temp:t': 1 });
    expect(actions.stateOps).toBeUndefined();
  });

  it('refuses a by that is not a finite number, or a key holding something else than a number, with StateValueError', () => {
    const { actions, state } = stateOn({ name: 'Ann' });
    expect(() => state.increment('n', Number.NaN)).toThrow(expect.objectContaining({ code: 'INVALID_STATE_VALUE' }));
    expect(() => state.increment('name')).toThrow(expect.objectContaining({ code: 'INVALID_STATE_VALUE', message: expect.stringContaining('increment needs a number') }));
    expect(actions.stateDelta).toEqual({});
  });

  it('is dropped by a later set or delete of the key', () => {
    const { actions, state } = stateOn({});
    state.increment('a');
    state.set('a', 5);
    state.increment('b');
    state.delete('b');
    expect(actions.stateDelta).toEqual({ a: 5, b: null });
    expect(actions.stateOps).toBeUndefined();
  });
});

describe('State.compareAndSet', () => {
  it('writes with its condition when the value this call sees matches (as JSON), and records nothing when it does not', () => {
    const { actions, state } = stateOn({ 'app:seat': { by: 'x', at: [1] } });
    expect(state.compareAndSet('app:seat', { at: [1], by: 'x' }, 'mine')).toBe(true);
    expect(state.compareAndSet('app:other', 'something', 'mine')).toBe(false);
    expect(state.compareAndSet('app:free', undefined, 1)).toBe(true);
    expect(state.get('app:seat')).toBe('mine');
    expect(actions.stateDelta).toEqual({ 'app:seat': 'mine', 'app:free': 1 });
    expect(actions.stateOps).toEqual({ 'app:seat': { op: 'compareAndSet', expected: { by: 'x', at: [1] } }, 'app:free': { op: 'compareAndSet', expected: null } });
  });

  it('keeps the condition on the stored value when the call writes the key again', () => {
    const { actions, state } = stateOn({ n: 1 });
    expect(state.compareAndSet('n', 1, 2)).toBe(true);
    expect(state.compareAndSet('n', 2, 3)).toBe(true);
    state.increment('n');
    expect(actions.stateDelta).toEqual({ n: 4 });
    expect(actions.stateOps).toEqual({ n: { op: 'compareAndSet', expected: 1 } });
    const other = stateOn({ m: 1 });
    other.state.increment('m');
    expect(other.state.compareAndSet('m', 2, 5)).toBe(true);
    expect(other.actions.stateOps).toEqual({ m: { op: 'compareAndSet', expected: 1 } });
  });
});

describe('resolveStateOps', () => {
  it('refuses an increment whose sum would pass the largest finite number (JSON would store null) with STATE_CONFLICT', () => {
    expect(() => resolveStateOps({ n: { op: 'increment', by: Number.MAX_VALUE } }, () => Number.MAX_VALUE)).toThrow(StateConflictError);
    expect(() => resolveStateOps({ n: { op: 'increment', by: Number.MAX_VALUE } }, () => Number.MAX_VALUE)).toThrow('a number the increment keeps finite');
  });

  it('adds increments to the stored values and checks compare-and-sets against them', () => {
    const stored: Record<string, unknown> = { a: 5, seat: 'free' };
    expect(resolveStateOps({ a: { op: 'increment', by: 2 }, b: { op: 'increment', by: 1 }, seat: { op: 'compareAndSet', expected: 'free' } }, (k) => stored[k])).toEqual({ a: 7, b: 1 });
  });

  it('throws StateConflictError naming the key, what it expected and what the store holds', () => {
    const error = (() => {
      try {
        resolveStateOps({ seat: { op: 'compareAndSet', expected: null } }, () => 'taken');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toMatchObject({ code: 'STATE_CONFLICT', key: 'seat', expected: null, actual: 'taken' });
    expect((error as Error).message).toBe('State key "seat" was changed by another writer: expected no value, the store holds "taken". Nothing of this update was stored; read the key again and decide anew.');
    expect(() => resolveStateOps({ n: { op: 'increment', by: 1 } }, () => 'x')).toThrow(StateConflictError);
  });
});
