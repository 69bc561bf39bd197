import type { Type } from '@nestjs/common';
import type { AgentToolEntry, Tool } from '@toolsmith/core';
import type { DiscoveredToolset } from './discovered-toolset';

/** Selects the tools of every discovered toolset whose `@Toolset({ prefix })` is exactly `prefix`. */
export interface ToolsetPrefixSelector {
  /** The prefix to match exactly, as declared (e.g. `weather_`); startup fails when no discovered toolset has it. */
  prefix: string;
}

/** Selects the discovered tools for which `filter` returns true. */
export interface ToolFilterSelector {
  /** Called at startup for every discovered tool, with the toolset it belongs to; `true` gives the agent that tool. */
  filter: (tool: Tool, toolset: DiscoveredToolset) => boolean;
}

/**
 * One entry of an agent's `tools` in {@link ToolsmithAgentOptions}: a `@Toolset` class that is a Nest
 * provider (its tools), `{ prefix }` (the tools of the toolsets with that prefix), `{ filter }` (the
 * discovered tools it accepts), or anything `LlmAgent` accepts (a tool, a toolset, a provider tool),
 * passed through unchanged.
 */
export type ToolSelector = Type | ToolsetPrefixSelector | ToolFilterSelector | AgentToolEntry;
