import { createEventActions } from '../state/event-actions';
import { State } from '../state/state';
import { ToolContext, type ToolContextInit } from '../tools/tool-context';

/** Options for {@link testToolContext}: any {@link ToolContextInit} field, with state as plain values. */
export interface TestToolContextOptions extends Partial<Omit<ToolContextInit, 'state' | 'actions'>> {
  /** Session state the tool sees (default empty); it is copied, and writes land in `actions.stateDelta`. */
  state?: Record<string, unknown>;
}

/**
 * Builds a {@link ToolContext} as the runner would for one call, with fixed test ids unless given, fresh
 * actions and a state that records its writes, for tests that drive a tool or the executor directly.
 *
 * @example
 * const ctx = testToolContext({ state: { 'user:tier': 'gold' } });
 * await tool.run({ sku: 'A1' }, ctx);
 * expect(ctx.actions.stateDelta).toEqual({ cart: ['A1'] });
 */
export function testToolContext(options: TestToolContextOptions = {}): ToolContext {
  const { state, ...init } = options;
  const actions = createEventActions();
  return new ToolContext({
    functionCallId: 'call-1',
    invocationId: 'invocation-1',
    agentName: 'test-agent',
    appName: 'test-app',
    userId: 'test-user',
    sessionId: 'test-session',
    ...withoutUndefined(init),
    state: new State({ ...state }, actions.stateDelta, actions),
    actions,
  });
}

// An option given as `undefined` (e.g. passed through from optional caller options) keeps its default.
function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
