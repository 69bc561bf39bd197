import { ToolsmithError } from './toolsmith-error';

/** A transfer named an agent that is not in the agent tree. */
export class AgentNotFoundError extends ToolsmithError {
  constructor(
    /** The agent the transfer named (the model's `transferToAgent` argument), which no agent of the tree has. */
    readonly agentName: string,
    availableAgents: readonly string[],
  ) {
    super(
      'AGENT_NOT_FOUND',
      `Agent "${agentName}" does not exist in this agent tree. Available agents: ${availableAgents.join(', ') || '(none)'}.`,
      { details: { availableAgents } },
    );
  }
}
