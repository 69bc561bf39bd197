import { BaseAgent, LlmAgent } from '@toolsmith/core';
import type { DiscoveredToolset } from './discovered-toolset';
import { selectTools } from './tool-selection';
import type { ToolsmithAgentFactory, ToolsmithAgentOptions, ToolsmithModuleOptions } from './toolsmith-module-options.interface';

/** Builds the root agent of the module options, giving described agents their selected tools. */
export async function buildAgent(agent: ToolsmithModuleOptions['agent'], discovered: readonly DiscoveredToolset[]): Promise<BaseAgent> {
  if (agent instanceof BaseAgent) return agent;
  if (typeof agent === 'function') return (agent as ToolsmithAgentFactory)(discovered);
  return describedAgent(agent, discovered);
}

function describedAgent(options: ToolsmithAgentOptions, discovered: readonly DiscoveredToolset[]): LlmAgent {
  const { tools, subAgents, ...rest } = options;
  return new LlmAgent({
    ...rest,
    tools: tools === undefined ? discovered.flatMap((d) => d.tools) : selectTools(options.name, tools, discovered),
    subAgents: subAgents?.map((child) => (child instanceof BaseAgent ? child : describedAgent(child, discovered))),
  });
}
