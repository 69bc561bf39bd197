import type { JsonSchema } from '../model/json-schema';
import { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';

/** Name of the tool the runner adds to agents that can hand the conversation to another agent. */
export const TRANSFER_TO_AGENT = 'transfer_to_agent';

/**
 * Hands the conversation to another agent (`actions.transferToAgent`). Added automatically to an
 * `LlmAgent` with sub-agents or an `LlmAgent` parent; its description lists the agents it may name.
 */
export class TransferToAgentTool extends BaseTool {
  /** Always {@link TRANSFER_TO_AGENT}. */
  readonly name = TRANSFER_TO_AGENT;
  /** Asks the model to transfer when another agent suits better, and lists each target with its description. */
  readonly description: string;
  /** One argument, `agentName`, limited (`enum`) to the target agents' names. */
  readonly parameters: JsonSchema;

  constructor(targets: ReadonlyArray<{ name: string; description: string }>) {
    super();
    this.description =
      'Transfers the conversation to another agent that is better suited to answer. Agents you can transfer to:\n' +
      targets.map((t) => `- ${t.name}: ${t.description || '(no description)'}`).join('\n');
    this.parameters = {
      type: 'object',
      properties: { agentName: { type: 'string', enum: targets.map((t) => t.name), description: 'The agent to transfer to.' } },
      required: ['agentName'],
      additionalProperties: false,
    };
  }

  /** Sets `actions.transferToAgent`: once this step's calls are answered, the named agent runs instead of this one's model. */
  run(args: Record<string, unknown>, context: ToolContext): Record<string, unknown> {
    context.actions.transferToAgent = args.agentName as string;
    return { status: 'transferred', agentName: args.agentName };
  }
}
