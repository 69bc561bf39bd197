import { Event } from '../events/event';
import { BaseAgent } from './base-agent';
import { InvocationContext } from './invocation-context';

/**
 * Runs its sub-agents one after the other in the same invocation. Stops early when an event escalates
 * (so an `exitLoop` inside a pipeline inside a {@link LoopAgent} ends the loop at once) or when a
 * sub-agent pauses the invocation.
 */
export class SequentialAgent extends BaseAgent {
  async *runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    for (const agent of this.subAgents) {
      let stop = false;
      for await (const event of agent.runAsync(context.forAgent(agent))) {
        yield event;
        if (endsWorkflow(event)) stop = true;
      }
      if (stop || context.signal.aborted) return;
    }
  }
}

/** True when an event escalates, fails, or pauses the invocation (confirmation, long-running tool). */
export function endsWorkflow(event: Event): boolean {
  return (
    event.actions.escalate === true ||
    event.errorCode !== undefined ||
    (event.longRunningToolIds?.length ?? 0) > 0 ||
    Object.keys(event.actions.requestedToolConfirmations ?? {}).length > 0
  );
}
