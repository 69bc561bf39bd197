import {
  AfterModelCallback,
  AgentCallbacks,
  BeforeModelCallback,
  OnModelErrorCallback,
  ToolCallbackChain,
} from '../agents/callbacks';

/** Ordered model callbacks: plugins' first, then the agent's. */
export interface ModelCallbackChain {
  beforeModel: readonly BeforeModelCallback[];
  afterModel: readonly AfterModelCallback[];
  onModelError: readonly OnModelErrorCallback[];
}

const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function collect<T>(sources: readonly AgentCallbacks[], pick: (source: AgentCallbacks) => T | T[] | undefined): T[] {
  return sources.flatMap((source) => asList(pick(source)));
}

/** The model callbacks of plugins then agent, in the order they run. */
export function modelCallbackChain(plugins: readonly AgentCallbacks[], agent: AgentCallbacks): ModelCallbackChain {
  const sources = [...plugins, agent];
  return {
    beforeModel: collect(sources, (s) => s.beforeModel),
    afterModel: collect(sources, (s) => s.afterModel),
    onModelError: collect(sources, (s) => s.onModelError),
  };
}

/** The tool callbacks of plugins then agent, in the order the executor runs them. */
export function toolCallbackChain(plugins: readonly AgentCallbacks[], agent: AgentCallbacks): ToolCallbackChain {
  const sources = [...plugins, agent];
  return {
    beforeTool: collect(sources, (s) => s.beforeTool),
    afterTool: collect(sources, (s) => s.afterTool),
    onToolError: collect(sources, (s) => s.onToolError),
  };
}
