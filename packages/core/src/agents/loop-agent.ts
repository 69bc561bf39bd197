import type { Event } from '../events/event';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import type { InvocationContext } from './invocation-context';
import { abortedWorkflow, endsWorkflow } from './sequential-agent';
import { pauseStillOpen, recordWorkflowPosition, workflowResume } from './workflow-resume';

/** Options of {@link LoopAgent}. */
export interface LoopAgentOptions extends BaseAgentOptions {
  /** Rounds to run at most; unlimited when absent (then a sub-agent must escalate, e.g. with `exitLoop`). */
  maxIterations?: number;
}

/**
 * Runs its sub-agents in order, round after round, until one escalates (`actions.escalate`, as the
 * `exitLoop` tool does), an error or pause occurs, or `maxIterations` rounds are done. When the user
 * answers a confirmation that paused it, it resumes in the round and sub-agent where it stood.
 *
 * @example
 * ```ts
 * new LoopAgent({ name: 'refine', subAgents: [writer, critic], maxIterations: 5 }); // critic calls exitLoop
 * ```
 */
export class LoopAgent extends BaseAgent {
  /** Rounds to run at most; `undefined` for no limit (a sub-agent must then escalate). */
  readonly maxIterations?: number;

  constructor(options: LoopAgentOptions) {
    super(options);
    this.maxIterations = options.maxIterations;
  }

  /** Runs the rounds, yielding every sub-agent's events; resumes at the paused round and sub-agent after a confirmation. */
  async *runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    // After a confirmation answer: continue the round and sub-agent that paused; rounds count over the whole conversation.
    let resume = workflowResume(this, context);
    // A smaller maxIterations since the pause must not skip the answered call: finish that round at least.
    const first = resume ? Math.min(resume.round, Math.max(0, (this.maxIterations ?? Infinity) - 1)) : 0;
    for (let round = first; this.maxIterations === undefined || round < this.maxIterations; round++) {
      for (let index = resume?.index ?? 0; index < this.subAgents.length; index++) {
        const agent = this.subAgents[index];
        let stop = false;
        for await (const event of agent.runAsync(context.forAgent(agent))) {
          recordWorkflowPosition(event, this, { subAgent: agent.name, round });
          yield event;
          if (endsWorkflow(event)) stop = true;
        }
        if (stop) return;
        if (resume && index === resume.index && pauseStillOpen(context, resume)) return;
        // Aborted after the sub-agent's last event: RUN_ABORTED when another sub-agent or round was still to run (see SequentialAgent).
        if (context.aborted) {
          if (index < this.subAgents.length - 1 || this.maxIterations === undefined || round + 1 < this.maxIterations) yield abortedWorkflow(this, context);
          return;
        }
      }
      resume = undefined;
      if (this.subAgents.length === 0) return;
    }
  }
}
