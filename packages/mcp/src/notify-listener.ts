import { thrownMessage } from '@toolsmith/core';

/**
 * Calls a listener the application gave (`onProgress`) whose answer nothing waits for: a throw, or a
 * rejected promise it returns, never reaches the call it listens to nor the process (an unhandled
 * rejection would end it). It becomes a process warning `TOOLSMITH_MCP_LISTENER_FAILED` naming the option.
 */
export function notifyListener<A extends unknown[]>(option: string, listener: (...args: A) => unknown, ...args: A): void {
  const failed = (error: unknown) => process.emitWarning(`McpToolset's ${option} failed, and the call goes on: ${thrownMessage(error)}`, { code: 'TOOLSMITH_MCP_LISTENER_FAILED' });
  try {
    const answer = listener(...args);
    if (answer instanceof Promise || (typeof answer === 'object' && answer !== null && typeof (answer as PromiseLike<unknown>).then === 'function')) {
      Promise.resolve(answer).catch(failed);
    }
  } catch (error) {
    failed(error);
  }
}
