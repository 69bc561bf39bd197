import { BaseAgent } from './base-agent';

/**
 * A tool that runs an agent of its own (`AgentTool`). The runner recognises the ability, rather than the
 * class, to check and prepare that agent's tree at startup: the runner cannot depend on `AgentTool`,
 * which itself runs invocations through the runner.
 */
export interface AgentBackedTool {
  /** The agent the tool runs; the runner checks its tree (unique names) and resolves its tools at startup. */
  readonly agent: BaseAgent;
}

/** Whether `tool` runs an agent of its own. */
export function isAgentBackedTool(tool: object): tool is AgentBackedTool {
  return (tool as Partial<AgentBackedTool>).agent instanceof BaseAgent;
}
