import { getEventListeners } from 'node:events';
import { scopeAbortSignal } from './scoped-abort-signal';

describe('scopeAbortSignal', () => {
  it('follows the parent, with its reason', () => {
    const parent = new AbortController();
    const scoped = scopeAbortSignal(parent.signal);
    expect(scoped.signal.aborted).toBe(false);
    parent.abort(new Error('stop'));
    expect(scoped.signal.aborted).toBe(true);
    expect((scoped.signal.reason as Error).message).toBe('stop');
  });

  it('leaves no listener on the parent once disposed, and no longer follows it', () => {
    const parent = new AbortController();
    const scopes = Array.from({ length: 10 }, () => scopeAbortSignal(parent.signal));
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(10);
    scopes.forEach((scope) => scope.dispose());
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    parent.abort();
    expect(scopes[0].signal.aborted).toBe(false);
  });

  it('starts aborted under an aborted parent, and works without one', () => {
    const parent = new AbortController();
    parent.abort('gone');
    expect(scopeAbortSignal(parent.signal).signal.reason).toBe('gone');
    expect(scopeAbortSignal(undefined).signal.aborted).toBe(false);
  });
});
