import type {
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

// Chains are built once per (plugins, agent callbacks) pair: callbacks are fixed once a runner exists.
const modelChains = new WeakMap<readonly AgentCallbacks[], WeakMap<AgentCallbacks, ModelCallbackChain>>();
const toolChains = new WeakMap<readonly AgentCallbacks[], WeakMap<AgentCallbacks, ToolCallbackChain>>();

function remember<C>(cache: WeakMap<readonly AgentCallbacks[], WeakMap<AgentCallbacks, C>>, plugins: readonly AgentCallbacks[], agent: AgentCallbacks, chain: C): C {
  let byAgent = cache.get(plugins);
  if (!byAgent) cache.set(plugins, (byAgent = new WeakMap()));
  byAgent.set(agent, chain);
  return chain;
}

// Asked on every model call and tool step: a cached chain is found without building anything (not even a closure).

/** The model callbacks of plugins then agent, in the order they run. */
export function modelCallbackChain(plugins: readonly AgentCallbacks[], agent: AgentCallbacks): ModelCallbackChain {
  return modelChains.get(plugins)?.get(agent) ?? remember(modelChains, plugins, agent, buildModelChain([...plugins, agent]));
}

/** The tool callbacks of plugins then agent, in the order the executor runs them. */
export function toolCallbackChain(plugins: readonly AgentCallbacks[], agent: AgentCallbacks): ToolCallbackChain {
  return toolChains.get(plugins)?.get(agent) ?? remember(toolChains, plugins, agent, buildToolChain([...plugins, agent]));
}

function buildModelChain(sources: readonly AgentCallbacks[]): ModelCallbackChain {
  return {
    beforeModel: collect(sources, (s) => s.beforeModel),
    afterModel: collect(sources, (s) => s.afterModel),
    onModelError: collect(sources, (s) => s.onModelError),
  };
}

function buildToolChain(sources: readonly AgentCallbacks[]): ToolCallbackChain {
  return {
    beforeTool: collect(sources, (s) => s.beforeTool),
    afterTool: collect(sources, (s) => s.afterTool),
    onToolError: collect(sources, (s) => s.onToolError),
  };
}
