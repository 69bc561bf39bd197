import type { BaseAgent, Container, ReadonlyContext} from '@toolsmith/core';
import { BaseTool, LlmAgent, State, createClassTools, isProviderTool, isToolset } from '@toolsmith/core';
import type { ToolInfo } from './protocol/api-types';

/** A tool of the agent tree, with the agents that offer it. */
export interface AgentToolEntry {
  tool: BaseTool;
  agents: string[];
}

/**
 * Lists every tool the agent tree offers, by name: `@Toolset` classes built with `container` (so a
 * tool run alone shares the runner's instances), tools, and the tools toolsets give for `context`.
 * Provider tools run at the provider and cannot be run alone, so they are left out.
 */
export async function agentTools(root: BaseAgent, container: Container, context: ReadonlyContext): Promise<Map<string, AgentToolEntry>> {
  const tools = new Map<string, AgentToolEntry>();
  const add = (tool: BaseTool, agent: string) => {
    const entry = tools.get(tool.name);
    if (!entry) tools.set(tool.name, { tool, agents: [agent] });
    else if (!entry.agents.includes(agent)) entry.agents.push(agent);
  };
  for (const agent of root.allAgents()) {
    if (!(agent instanceof LlmAgent)) continue;
    for (const entry of agent.tools) {
      if (entry instanceof BaseTool) add(entry, agent.name);
      else if (isProviderTool(entry)) continue;
      else if (isToolset(entry)) for (const tool of await entry.getTools({ ...context, agentName: agent.name })) add(tool, agent.name);
      else for (const tool of classTools(entry, container)) add(tool, agent.name);
    }
  }
  return tools;
}

/** The same class scanned twice gives new tool objects; keep the first so a class listed by two agents is built once. */
const scanned = new WeakMap<Container, Map<unknown, BaseTool[]>>();
function classTools(entry: Function | object, container: Container): BaseTool[] {
  let byClass = scanned.get(container);
  if (!byClass) scanned.set(container, (byClass = new Map()));
  let tools = byClass.get(entry);
  if (!tools) byClass.set(entry, (tools = createClassTools(entry, { container })));
  return tools;
}

/** A context for listing tools outside a run (toolsets may look at the user and state). */
export function listingContext(appName: string, userId: string, agentName: string, state: Record<string, unknown> = {}): ReadonlyContext {
  return { appName, userId, sessionId: '', invocationId: 'devtools-listing', agentName, state: new State(state) };
}

/** The API's view of a tool: name, description, schemas and flags. */
export function toolInfo({ tool, agents }: AgentToolEntry): ToolInfo {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters as Record<string, unknown>,
    ...(tool.responseSchema ? { responseSchema: tool.responseSchema as Record<string, unknown> } : {}),
    isLongRunning: tool.isLongRunning,
    requiresConfirmation: tool.requireConfirmation !== undefined && tool.requireConfirmation !== false,
    agents,
  };
}
