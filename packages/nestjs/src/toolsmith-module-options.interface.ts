import type { ModuleMetadata, Type } from '@nestjs/common';
import type { AgentCallbacks, BaseAgent, LlmAgentOptions, Plugin, RunnerOptions, SessionService } from '@toolsmith/core';
import type { DiscoveredToolset } from './discovered-toolset';
import type { ToolSelector } from './tool-selector';

/**
 * An `LlmAgent` described for the module: the same options, except that `tools` selects among the
 * discovered `@Toolset` providers (by class, `{ prefix }` or `{ filter }`, see {@link ToolSelector}) and
 * sub-agents may be described the same way. Without `tools`, the agent gets every discovered tool.
 */
export interface ToolsmithAgentOptions extends Omit<LlmAgentOptions, 'tools' | 'subAgents'> {
  /** The agent's tools, selected in order (each tool at most once); absent gives it every discovered tool. */
  tools?: ToolSelector[];
  /** Sub-agents: described ones are built the same way (with their own `tools` selection), agents are used as they are. */
  subAgents?: (ToolsmithAgentOptions | BaseAgent)[];
}

/**
 * Builds the root agent from the discovered toolsets, for agent trees the options cannot describe
 * (custom agent classes, loops). May be async.
 */
export type ToolsmithAgentFactory = (toolsets: readonly DiscoveredToolset[]) => BaseAgent | Promise<BaseAgent>;

/** Options of {@link ToolsmithModule.forRoot}, and what the factory of `forRootAsync` returns. */
export interface ToolsmithModuleOptions {
  /** Names the app; `app:` state is shared per app name. Default `toolsmith`. */
  appName?: string;
  /** The root agent: described (tools chosen among discovered toolsets), an agent built by hand, or a factory. */
  agent: ToolsmithAgentOptions | BaseAgent | ToolsmithAgentFactory;
  /** Where sessions live. Default: an in-memory session service (one process only). */
  sessionService?: SessionService;
  /**
   * Plugins: plain objects, or classes that Nest builds with their dependencies (registered as providers
   * of the module; with `forRootAsync` list the classes in its own `plugins`).
   */
  plugins?: (Plugin | Type<AgentCallbacks>)[];
  /** Further runner options (memory and artifact services, concurrency, argument limits). */
  runner?: Omit<RunnerOptions, 'appName' | 'agent' | 'sessionService' | 'plugins' | 'providers' | 'container'>;
  /** Turn Nest `HttpException`s thrown by discovered tools into `HTTP_EXCEPTION` error responses. Default true. */
  mapHttpExceptions?: boolean;
  /** Modules whose exported providers the plugin classes need. */
  imports?: ModuleMetadata['imports'];
}

/** Options of {@link ToolsmithModule.forRootAsync}: the module options come from a factory with injected dependencies. */
export interface ToolsmithModuleAsyncOptions {
  /** Modules whose exported providers `inject` and the plugin classes need. */
  imports?: ModuleMetadata['imports'];
  /** Tokens whose instances are passed to `useFactory`, in order. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's own FactoryProvider types `inject` this way
  inject?: any[];
  /** Returns the module options; its `imports` are ignored (use the field above). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the factory's parameters are whatever `inject` resolves to
  useFactory: (...dependencies: any[]) => ToolsmithModuleOptions | Promise<ToolsmithModuleOptions>;
  /** Plugin classes Nest builds with their dependencies; the factory's `plugins` may name them too. */
  plugins?: Type<AgentCallbacks>[];
}

/**
 * Options of {@link ToolsmithModule.forFeature}: one more runner, with its own agent, next to the one of
 * `forRoot` (which must be imported too). It shares the discovered toolsets and, unless given its own,
 * the session service.
 */
export interface ToolsmithFeatureOptions extends Pick<ToolsmithModuleOptions, 'agent' | 'plugins' | 'runner' | 'imports' | 'sessionService'> {
  /** Names the runner: inject it with `@InjectRunner(name)`. */
  name: string;
  /** Names the app for sessions and `app:` state. Default: `name`. */
  appName?: string;
}
