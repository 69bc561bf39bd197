import type { ConfirmationPolicySetting } from '../confirmation/confirmation-policy';
import { checkPolicySetting } from '../confirmation/confirmation-policy';
import type { Event } from '../events/event';
import type { GenerationConfig, ToolChoice } from '../model/llm-request';
import type { Model } from '../model/model';
import type { ProviderTool } from '../model/provider-tool';
import { runLlmFlow } from '../flow/llm-flow';
import type { BaseTool } from '../tools/base-tool';
import type { ReadonlyContext } from '../tools/readonly-context';
import type { Toolset } from '../tools/toolset';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import { isManifestTypeRef } from '../scanning/manifest-type';
import { type OutputSchema, type ResolvedOutputSchema, resolveOutputSchema } from './output-schema';
import type { AgentCallbacks } from './callbacks';
import type { InvocationContext } from './invocation-context';
import type { CompactionOptions } from '../context/compaction-options';
import { checkCompactionOptions } from '../context/check-compaction-options';
import { checkedHooks } from './callback-hooks';
import { AgentConfigError } from '../errors/agent-config-error';
import { callbacksNotObjectMessage } from '../errors/messages';

/**
 * One entry of {@link LlmAgentOptions.tools}: a tool, a toolset (asked per request), a provider tool,
 * or a `@Toolset` class or instance (scanned once at startup; a class is built by the container).
 */
export type AgentToolEntry = BaseTool | Toolset | ProviderTool | Function | object;

/** The system instruction: fixed text, or computed per request from the context. */
export type Instruction = string | ((context: ReadonlyContext) => string | Promise<string>);

/** Options of {@link LlmAgent}; `TOutput` is the type of its structured answer (see `outputSchema`). */
export interface LlmAgentOptions<TOutput = unknown> extends BaseAgentOptions {
  /** The model that drives this agent. */
  model: Model;
  /** System instruction for the model. */
  instruction?: Instruction;
  /** Tools offered to the model. */
  tools?: AgentToolEntry[];
  /** Model and tool callbacks of this agent (run after the runner's plugins). The agent keeps a copy: later changes to this object or its lists have no effect. */
  callbacks?: AgentCallbacks;
  /** Model calls allowed in one invocation (all agents of it together) before it ends with `MAX_LLM_CALLS_EXCEEDED`. Default 100. */
  maxLlmCalls?: number;
  /** Sampling and output settings sent with every request. */
  generationConfig?: GenerationConfig;
  /** Which tools the model may or must call. */
  toolChoice?: ToolChoice;
  /** Stores the agent's final answer in this state key: its text, or with `outputSchema` the parsed object. */
  outputKey?: string;
  /**
   * The final answer must be JSON of this shape: a class-validator DTO class, a TypeScript object type
   * through the build-time manifest (`manifestType<Forecast>('Forecast')`), or a JSON Schema object
   * (root `type: "object"`). A DTO or schema is checked here; a manifest type is read when the Runner
   * is built (so `useManifest` may still be called after the agent is made). It is requested with the provider's native structured output; tools can
   * still be called before it. The answer is parsed and validated (ajv, and class-validator for a DTO
   * that needs it) and set as `event.output` (read it typed with {@link LlmAgent.outputOf}). An invalid
   * answer is an `OUTPUT_INVALID` error event that is fed back to the model, `outputRetries` times at most.
   */
  outputSchema?: OutputSchema<TOutput>;
  /** Answers that break `outputSchema` fed back for another try, per invocation, before the run ends on `OUTPUT_INVALID`. Default 2. */
  outputRetries?: number;
  /** Do not offer a transfer back to the parent agent. */
  disallowTransferToParent?: boolean;
  /**
   * Keeps requests small in long conversations: summarize older turns (`strategy: 'summarize'`) or send
   * only the last turns (`strategy: 'trim'`); overrides the runner's `compaction`. See docs/context.md.
   */
  compaction?: CompactionOptions;
  /**
   * Decides this agent's calls before remembered grants and the person (allow, deny with a reason, ask),
   * or only records what it would decide (`{ decide, mode: 'shadow' }`); overrides the runner's
   * `confirmationPolicy`. See docs/confirmation.md.
   */
  confirmationPolicy?: ConfirmationPolicySetting;
}

/**
 * An agent driven by a language model: it sends the conversation and its tools' declarations to the
 * model, runs the function calls the model asks for, feeds the results back, and repeats until the
 * model answers, a tool pauses or ends the turn, or the conversation is transferred.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'weather_agent',
 *   model: new OpenAIModel({ model: 'gpt-4.1-mini' }),
 *   instruction: 'Answer weather questions with the getWeather tool.',
 *   tools: [WeatherTools],
 * });
 * ```
 */
export class LlmAgent<TOutput = unknown> extends BaseAgent {
  /** The model every request of this agent is sent to. */
  readonly model: Model;
  /** The system instruction; a function is called for each request with the invocation's context. Absent: no system prompt. */
  readonly instruction?: Instruction;
  /** The tool entries as given (classes, toolsets, tools); resolved by the runner, a toolset asked again for each request. */
  readonly tools: readonly AgentToolEntry[];
  /** This agent's model and tool callbacks, run after the runner's plugins: a frozen copy of those given (`{}` when none were). */
  readonly callbacks: AgentCallbacks;
  /** Model calls one invocation may make (all its agents together) before this agent ends it with `MAX_LLM_CALLS_EXCEEDED`. Default 100. */
  readonly maxLlmCalls: number;
  /** Sampling and output settings, copied into every request; absent: the provider's defaults. */
  readonly generationConfig?: GenerationConfig;
  /** Which tools the model may or must call, sent with every request; absent: the provider's default (usually `auto`). */
  readonly toolChoice?: ToolChoice;
  /** State key that receives the agent's final answer (its text, or with `outputSchema` the parsed object); absent: not stored. */
  readonly outputKey?: string;
  /** When true, the transfer tool does not offer the parent agent as a target. Default `false`. */
  readonly disallowTransferToParent: boolean;
  private readonly outputSchemaSource?: OutputSchema<TOutput>;
  private resolvedOutput?: ResolvedOutputSchema;
  /** Answers that break `outputSchema` fed back for another try per invocation (see {@link LlmAgentOptions.outputRetries}). */
  readonly outputRetries: number;
  /** This agent's own compaction (see {@link LlmAgentOptions.compaction}); absent: the runner's, if any. */
  readonly compaction?: CompactionOptions;
  /** This agent's own confirmation policy (see {@link LlmAgentOptions.confirmationPolicy}); absent: the runner's, if any. */
  readonly confirmationPolicy?: ConfirmationPolicySetting;

  constructor(options: LlmAgentOptions<TOutput>) {
    super(options);
    this.model = options.model;
    this.instruction = options.instruction;
    this.tools = options.tools ?? [];
    this.callbacks = ownCallbacks(options.callbacks, this.name);
    this.maxLlmCalls = options.maxLlmCalls ?? 100;
    this.generationConfig = options.generationConfig;
    this.toolChoice = options.toolChoice;
    this.outputKey = options.outputKey;
    this.disallowTransferToParent = options.disallowTransferToParent ?? false;
    this.outputSchemaSource = options.outputSchema;
    // A manifest type waits for the Runner: the app may set its manifest after building its agents.
    if (options.outputSchema !== undefined && !isManifestTypeRef(options.outputSchema)) {
      this.resolvedOutput = resolveOutputSchema(this.name, options.outputSchema);
    }
    this.outputRetries = options.outputRetries ?? 2;
    if (options.compaction) this.compaction = checkCompactionOptions(options.compaction, `agent "${this.name}"`);
    checkPolicySetting(options.confirmationPolicy, `agent "${this.name}"`);
    this.confirmationPolicy = options.confirmationPolicy;
  }

  /**
   * The output schema as adapters get it and the flow checks it; absent without `outputSchema`.
   * Resolved on first use (by the Runner, when it is built) for a manifest type.
   * @internal
   */
  get resolvedOutputSchema(): ResolvedOutputSchema | undefined {
    if (this.resolvedOutput === undefined && this.outputSchemaSource !== undefined) {
      this.resolvedOutput = resolveOutputSchema(this.name, this.outputSchemaSource);
    }
    return this.resolvedOutput;
  }

  /** The validated structured answer an event of this agent carries (see `outputSchema`), typed; `undefined` on other events. */
  outputOf(event: Event): TOutput | undefined {
    return event.author === this.name ? (event.output as TOutput | undefined) : undefined;
  }

  /** Runs the model ⇄ tool loop for this invocation. */
  runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    return runLlmFlow(this, context);
  }
}

/**
 * A frozen copy of `callbacks`' hooks and of their lists, each checked (see {@link checkedHooks}): the agent
 * keeps the callbacks it was given, and the callback chains cached by this object (see
 * flow/callback-chains.ts) always hold what it holds.
 */
function ownCallbacks(callbacks: AgentCallbacks | undefined, agentName: string): AgentCallbacks {
  if (callbacks === undefined) return Object.freeze({});
  const where = `The agent "${agentName}"'s callbacks`;
  if (typeof callbacks !== 'object' || callbacks === null) throw new AgentConfigError(callbacksNotObjectMessage(where, callbacks === null ? 'null' : typeof callbacks));
  return Object.freeze(checkedHooks(callbacks, where)) as AgentCallbacks;
}
