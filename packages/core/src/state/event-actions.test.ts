import { createEventActions } from './event-actions';

describe('createEventActions', () => {
  it('makes fresh deltas that are empty plain objects, as `{}` is', () => {
    const actions = createEventActions();
    const other = createEventActions();
    expect(actions.stateDelta).not.toBe(other.stateDelta);
    expect(actions.artifactDelta).not.toBe(actions.stateDelta);
    for (const delta of [actions.stateDelta, actions.artifactDelta]) {
      expect(Object.getPrototypeOf(delta)).toBe(Object.prototype);
      expect(delta.constructor).toBe(Object);
      expect(Object.keys(delta)).toEqual([]);
    }
    actions.stateDelta.a = 1;
    actions.artifactDelta['f.txt'] = 2;
    expect(actions).toStrictEqual({ stateDelta: { a: 1 }, artifactDelta: { 'f.txt': 2 } });
    expect(JSON.parse(JSON.stringify(actions))).toEqual(actions);
    expect(other).toStrictEqual({ stateDelta: {}, artifactDelta: {} });
  });
});
