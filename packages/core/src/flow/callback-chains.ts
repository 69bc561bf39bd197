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

// Chains are built once per (plugins, agent callbacks) pair. Both keys are frozen copies made when the runner
// and the agent were built (runner.ts, llm-agent.ts): what a key holds never changes, nor its chain.
const modelChains = new WeakMap<readonly AgentCallbacks[], WeakMap<AgentCallbacks, ModelCallbackChain>>();
const toolChains = new WeakMap<readonly AgentCallbacks[], WeakMap<AgentCallbacks, ToolCallbackChain>>();

function remember<C>(cache: WeakMap<readonly AgentCallbacks[], WeakMap<AgentCallbacks, C>>, plugins: readonly AgentCallbacks[], agent: AgentCallbacks, chain: C): C {
  let byAgent = cache.get(plugins);
  if (!byAgent) cache.set(plugins, (byAgent = new WeakMap()));
  byAgent.set(agent, chain);
  return chain;
}

// Asked on every model call and tool step: a cached chain is found without building anything (not even a
// closure), and the pair asked last (a process usually runs one runner's agent turn after turn) without
// the two WeakMap lookups. The pair asked last is held until another is asked: its callbacks, no session data.
let lastModel: { plugins: readonly AgentCallbacks[]; agent: AgentCallbacks; chain: ModelCallbackChain } | undefined;
let lastTool: { plugins: readonly AgentCallbacks[]; agent: AgentCallbacks; chain: ToolCallbackChain } | undefined;

/** The model callbacks of plugins then agent, in the order they run. */
export function modelCallbackChain(plugins: readonly AgentCallbacks[], agent: AgentCallbacks): ModelCallbackChain {
  const last = lastModel;
  if (last !== undefined && last.plugins === plugins && last.agent === agent) return last.chain;
  const chain = modelChains.get(plugins)?.get(agent) ?? remember(modelChains, plugins, agent, buildModelChain([...plugins, agent]));
  lastModel = { plugins, agent, chain };
  return chain;
}

/** The tool callbacks of plugins then agent, in the order the executor runs them. */
export function toolCallbackChain(plugins: readonly AgentCallbacks[], agent: AgentCallbacks): ToolCallbackChain {
  const last = lastTool;
  if (last !== undefined && last.plugins === plugins && last.agent === agent) return last.chain;
  const chain = toolChains.get(plugins)?.get(agent) ?? remember(toolChains, plugins, agent, buildToolChain([...plugins, agent]));
  lastTool = { plugins, agent, chain };
  return chain;
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
