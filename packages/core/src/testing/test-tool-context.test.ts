import { testToolContext } from './test-tool-context';

describe('testToolContext', () => {
  it('uses fixed test ids unless given, and a never-aborted signal', () => {
    const ctx = testToolContext({ userId: 'u7', sessionId: undefined });
    expect(ctx).toMatchObject({
      functionCallId: 'call-1',
      invocationId: 'invocation-1',
      agentName: 'test-agent',
      appName: 'test-app',
      userId: 'u7',
      sessionId: 'test-session',
    });
    expect(ctx.signal.aborted).toBe(false);
  });

  it('copies the given state and records writes in its own actions', () => {
    const initial = { cart: ['A1'] };
    const ctx = testToolContext({ state: initial });
    expect(ctx.state.get('cart')).toEqual(['A1']);
    ctx.state.set('cart', ['A1', 'B2']);
    expect(ctx.actions.stateDelta).toEqual({ cart: ['A1', 'B2'] });
    expect(initial).toEqual({ cart: ['A1'] });
    expect(testToolContext().actions.stateDelta).toEqual({});
  });
});
