import { McpSessionState } from './mcp-session-state';

describe('McpSessionState', () => {
  it('stores a call delta by scope: session, user:, app:, never temp:', () => {
    const store = new McpSessionState();
    store.apply('ann', 's1', { visits: 1, 'user:name': 'Ann', 'app:motd': 'hi', 'temp:scratch': 'x' });

    const same = store.view('ann', 's1', {});
    expect(same.toObject()).toEqual({ visits: 1, 'user:name': 'Ann', 'app:motd': 'hi' });
    expect(store.view('ann', 's2', {}).toObject()).toEqual({ 'user:name': 'Ann', 'app:motd': 'hi' });
    expect(store.view('bob', 's3', {}).toObject()).toEqual({ 'app:motd': 'hi' });
  });

  it('deletes keys written as null, and forgets a session that ended', () => {
    const store = new McpSessionState();
    store.apply('ann', 's1', { visits: 2, 'user:name': 'Ann' });
    store.apply('ann', 's1', { 'user:name': null });
    expect(store.view('ann', 's1', {}).toObject()).toEqual({ visits: 2 });
    store.endSession('s1');
    expect(store.view('ann', 's1', {}).toObject()).toEqual({});
  });

  it('gives each call a view whose writes stay in its delta until applied', () => {
    const store = new McpSessionState();
    const delta: Record<string, unknown> = {};
    store.view('ann', 's1', delta).set('visits', 1);
    expect(delta).toEqual({ visits: 1 });
    expect(store.view('ann', 's1', {}).has('visits')).toBe(false);
  });
});
