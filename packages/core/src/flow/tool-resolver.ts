import type { LlmAgent } from '../agents/llm-agent';
import { TransferToAgentTool } from '../builtins/transfer-to-agent';
import { AgentConfigError } from '../errors/agent-config-error';
import type { FunctionDeclaration } from '../model/function-declaration';
import { type ProviderTool, isProviderTool } from '../model/provider-tool';
import { BaseTool } from '../tools/base-tool';
import type { ReadonlyContext } from '../tools/readonly-context';
import { type Toolset, isToolset } from '../tools/toolset';
import { isRequestOnlyTool } from '../tools/request-only-tool';
import { assertConfirmationRule } from '../tools/require-confirmation';

/** The tools offered to the model in one request, with everything the loop needs precomputed. */
export interface OfferedTools {
  readonly tools: readonly BaseTool[];
  readonly byName: ReadonlyMap<string, BaseTool>;
  readonly declarations: readonly FunctionDeclaration[];
  /** Tools with a `processRequest` hook, in order. */
  readonly processors: readonly BaseTool[];
  readonly providerTools: readonly ProviderTool[];
  /** Declared tool names, for the "unknown tool" message. */
  readonly names: readonly string[];
  /** Whether some offered tool is `sequential` (its calls then take the queue, even one alone in its step). */
  readonly anySequential: boolean;
}

/** An agent's `tools` entries, sorted once at startup. */
interface PreparedTools {
  readonly staticTools: readonly BaseTool[];
  readonly toolsets: readonly Toolset[];
  readonly providerTools: readonly ProviderTool[];
  /** Set when there is no toolset: the same object serves every request. */
  readonly staticOffered?: OfferedTools;
}

/** Turns a `@Toolset` class or instance into tools (the scanner, with the runner's container). */
export type ClassToolsFactory = (entry: Function | object) => BaseTool[];

/**
 * Resolves each agent's `tools` entries once (scanning classes, checking names and providers) and
 * answers, per request, which tools are offered. Without toolsets the answer is one cached object,
 * so a turn costs the same with 3 tools or 500.
 */
export class ToolResolver {
  private readonly prepared = new WeakMap<LlmAgent, PreparedTools>();
  private readonly allToolsets = new Set<Toolset>();
  /** The agent asked for last, and its tools: each model call asks for its agent's, and a run's usual calls are one agent's (no WeakMap read). */
  private lastAgent?: LlmAgent;
  private lastPrepared?: PreparedTools;

  constructor(private readonly classTools?: ClassToolsFactory) {}

  /** Resolves an agent's static tools; throws {@link AgentConfigError} for entries that cannot work. */
  prepare(agent: LlmAgent): PreparedTools {
    if (agent === this.lastAgent) return this.lastPrepared!;
    const cached = this.prepared.get(agent);
    if (cached) return this.remember(agent, cached);
    const staticTools: BaseTool[] = [];
    const toolsets: Toolset[] = [];
    const providerTools: ProviderTool[] = [];
    for (const entry of agent.tools) {
      if (entry instanceof BaseTool) staticTools.push(entry);
      else if (isProviderTool(entry)) {
        if (entry.provider !== agent.model.provider) {
          throw new AgentConfigError(
            `Agent "${agent.name}" uses provider tool "${entry.name}" of provider "${entry.provider}", but its model is a "${agent.model.provider}" model. ` +
              'Provider tools only work with their own provider; remove it or use a model of that provider.',
          );
        }
        providerTools.push(entry);
      } else if (isToolset(entry)) {
        toolsets.push(entry);
        this.allToolsets.add(entry);
      } else if (typeof entry === 'function' || (typeof entry === 'object' && entry !== null)) {
        if (!this.classTools) {
          throw new AgentConfigError(`Agent "${agent.name}" has a tools entry that is not a BaseTool, Toolset or provider tool.`);
        }
        staticTools.push(...this.classTools(entry));
      } else {
        throw new AgentConfigError(`Agent "${agent.name}" has an invalid tools entry: ${String(entry)}.`);
      }
    }
    const transfer = transferTool(agent);
    if (transfer) staticTools.push(transfer);
    const staticOffered = toolsets.length === 0 ? offer(agent, staticTools, providerTools) : undefined;
    // Checks duplicates among static tools now, and lets the model refuse what its provider cannot take.
    agent.model.checkTools?.((staticOffered ?? offer(agent, staticTools, providerTools)).declarations);
    // The output schema too: a schema the provider cannot take fails here, not at the first request.
    if (agent.resolvedOutputSchema) agent.model.checkResponseSchema?.(agent.resolvedOutputSchema.request);
    // And the agent's tool choice and generation config with the model's own options.
    agent.model.checkRequestSettings?.({ agentName: agent.name, toolChoice: agent.toolChoice, config: agent.generationConfig });
    const result: PreparedTools = { staticTools, toolsets, providerTools, staticOffered };
    this.prepared.set(agent, result);
    return this.remember(agent, result);
  }

  /** `prepared`, kept as the tools of the agent asked for last. */
  private remember(agent: LlmAgent, prepared: PreparedTools): PreparedTools {
    this.lastAgent = agent;
    this.lastPrepared = prepared;
    return prepared;
  }

  /** The tools `agent` offers on every request, when it has no toolset; else `undefined` (use {@link ToolResolver.offered}). */
  staticOffered(agent: LlmAgent): OfferedTools | undefined {
    return this.prepare(agent).staticOffered;
  }

  /** The tools offered to `agent` for this request (toolsets are asked each time, with the context `context()` makes). */
  async offered(agent: LlmAgent, context: () => ReadonlyContext): Promise<OfferedTools> {
    const prepared = this.prepare(agent);
    if (prepared.staticOffered) return prepared.staticOffered;
    const tools = [...prepared.staticTools];
    const readonlyContext = context();
    for (const toolset of prepared.toolsets) tools.push(...(await toolset.getTools(readonlyContext)));
    const offered = offer(agent, tools, prepared.providerTools);
    // Toolsets' tools are known only now: checked before the request, never refused by the provider.
    agent.model.checkTools?.(offered.declarations);
    return offered;
  }

  /** Closes every toolset seen by this resolver. */
  async close(): Promise<void> {
    await Promise.all([...this.allToolsets].map((t) => t.close?.()));
  }
}

function offer(agent: LlmAgent, tools: readonly BaseTool[], providerTools: readonly ProviderTool[]): OfferedTools {
  const byName = new Map<string, BaseTool>();
  const declarations: FunctionDeclaration[] = [];
  const processors: BaseTool[] = [];
  let anySequential = false;
  for (const tool of tools) {
    if (typeof tool.processRequest === 'function') processors.push(tool);
    // A subclass's own field, or a toolset's tool, is seen here first (a typeof per tool: toolsets' tools are offered per request).
    const rule: unknown = tool.requireConfirmation;
    if (rule !== undefined && typeof rule !== 'boolean' && typeof rule !== 'function') assertConfirmationRule(rule, { className: tool.constructor.name, methodName: tool.name });
    if (isRequestOnlyTool(tool)) continue;
    if (byName.has(tool.name)) {
      throw new AgentConfigError(`Agent "${agent.name}" offers two tools named "${tool.name}"; give one a different name or a toolset prefix.`);
    }
    byName.set(tool.name, tool);
    declarations.push(tool.declaration());
    if (tool.sequential) anySequential = true;
  }
  return { tools, byName, declarations, processors, providerTools, names: [...byName.keys()], anySequential };
}

/** The transfer tool for an agent that has somewhere to transfer to, else `undefined`. */
function transferTool(agent: LlmAgent): BaseTool | undefined {
  const targets = agent.subAgents.map((a) => ({ name: a.name, description: a.description }));
  const parent = agent.parentAgent;
  // Only an LLM-driven parent can take the conversation back; workflow parents run their children themselves.
  if (parent && !agent.disallowTransferToParent && 'model' in parent) targets.push({ name: parent.name, description: parent.description });
  return targets.length > 0 ? new TransferToAgentTool(targets) : undefined;
}
