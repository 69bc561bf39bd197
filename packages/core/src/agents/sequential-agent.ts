import type { Event } from '../events/event';
import { RunAbortedError } from '../errors/run-aborted-error';
import { errorEvent } from '../flow/error-event';
import { BaseAgent } from './base-agent';
import type { InvocationContext } from './invocation-context';
import { pauseStillOpen, recordWorkflowPosition, workflowResume } from './workflow-resume';

/**
 * Runs its sub-agents one after the other in the same invocation. Stops early when an event escalates
 * (so an `exitLoop` inside a pipeline inside a {@link LoopAgent} ends the loop at once) or when a
 * sub-agent pauses the invocation. When the user answers a confirmation that paused it, it resumes
 * where it stood: the paused sub-agent finishes its turn, then the following ones run.
 */
export class SequentialAgent extends BaseAgent {
  /** Runs the sub-agents in order, yielding their events, until one escalates, fails or pauses, or the run is aborted (then a `RUN_ABORTED` event when a sub-agent was still to run). */
  async *runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    const resume = workflowResume(this, context);
    for (let index = resume?.index ?? 0; index < this.subAgents.length; index++) {
      const agent = this.subAgents[index];
      let stop = false;
      for await (const event of agent.runAsync(context.forAgent(agent))) {
        recordWorkflowPosition(event, this, { subAgent: agent.name });
        yield event;
        if (endsWorkflow(event)) stop = true;
      }
      if (stop) return;
      if (resume && index === resume.index && pauseStillOpen(context, resume)) return;
      // Aborted after the sub-agent's last event (its model's response, as the model closed): the run would have gone on
      // with the next sub-agent, so it ends RUN_ABORTED (an event not stored), not as if the pipeline were done.
      if (context.aborted) {
        if (index < this.subAgents.length - 1) yield abortedWorkflow(this, context);
        return;
      }
    }
  }
}

/** The `RUN_ABORTED` event a workflow agent ends on when the run was aborted before its next sub-agent (or round) ran. */
export function abortedWorkflow(agent: BaseAgent, context: InvocationContext): Event {
  return errorEvent(context, agent.name, new RunAbortedError(context.signal.reason));
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
