import { Event } from '../events/event';
import { BaseAgent, BaseAgentOptions } from './base-agent';
import { InvocationContext } from './invocation-context';
import { endsWorkflow } from './sequential-agent';

/** Options of {@link LoopAgent}. */
export interface LoopAgentOptions extends BaseAgentOptions {
  /** Rounds to run at most; unlimited when absent (then a sub-agent must escalate, e.g. with `exitLoop`). */
  maxIterations?: number;
}

/**
 * Runs its sub-agents in order, round after round, until one escalates (`actions.escalate`, as the
 * `exitLoop` tool does), an error or pause occurs, or `maxIterations` rounds are done.
 *
 * @example
 * ```ts
 * new LoopAgent({ name: 'refine', subAgents: [writer, critic], maxIterations: 5 }); // critic calls exitLoop
 * ```
 */
export class LoopAgent extends BaseAgent {
  readonly maxIterations?: number;

  constructor(options: LoopAgentOptions) {
    super(options);
    this.maxIterations = options.maxIterations;
  }

  async *runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    for (let round = 0; this.maxIterations === undefined || round < this.maxIterations; round++) {
      for (const agent of this.subAgents) {
        let stop = false;
        for await (const event of agent.runAsync(context.forAgent(agent))) {
          yield event;
          if (endsWorkflow(event)) stop = true;
        }
        if (stop || context.signal.aborted) return;
      }
      if (this.subAgents.length === 0) return;
    }
  }
}
