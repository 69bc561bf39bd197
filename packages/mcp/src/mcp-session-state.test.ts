import { State } from '@toolsmith/core';
import { McpSessionState } from './mcp-session-state';

describe('McpSessionState', () => {
  it('stores a call delta by scope: session, user:, app:, never temp:', () => {
    const store = new McpSessionState();
    store.apply('ann', 's1', { visits: 1, 'user:name': 'Ann', 'app:motd': 'hi', 'temp:scratch': 'x' });

    expect(store.values('ann', 's1')).toEqual({ visits: 1, 'user:name': 'Ann', 'app:motd': 'hi' });
    expect(store.values('ann', 's2')).toEqual({ 'user:name': 'Ann', 'app:motd': 'hi' });
    expect(store.values('bob', 's3')).toEqual({ 'app:motd': 'hi' });
  });

  it('deletes keys written as null, and forgets a session that ended', () => {
    const store = new McpSessionState();
    store.apply('ann', 's1', { visits: 2, 'user:name': 'Ann' });
    store.apply('ann', 's1', { 'user:name': null });
    expect(store.values('ann', 's1')).toEqual({ visits: 2 });
    store.endSession('s1');
    expect(store.values('ann', 's1')).toEqual({});
  });

  it('gives each call a copy of the values, whose writes stay in its delta until applied', () => {
    const store = new McpSessionState();
    const delta: Record<string, unknown> = {};
    new State(store.values('ann', 's1'), delta).set('visits', 1);
    expect(delta).toEqual({ visits: 1 });
    expect(new State(store.values('ann', 's1')).has('visits')).toBe(false);
  });
});
