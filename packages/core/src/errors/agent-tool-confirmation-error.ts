import { ToolsmithError } from './toolsmith-error';

/**
 * An agent run as a tool (`AgentTool`) reached a call that needs the user's confirmation. An
 * `AgentTool` runs its agent in a session of its own that ends with the call, so it cannot relay the
 * request to the user or resume the agent later: the call did not run, and the `AgentTool` call fails
 * with this error (code `AGENT_TOOL_CONFIRMATION_UNSUPPORTED`, `details.tools` naming the waiting tools).
 */
export class AgentToolConfirmationError extends ToolsmithError {
  constructor(
    /** The agent the `AgentTool` runs, whose tool call asked for confirmation. */
    readonly agentName: string,
    /** The tools whose calls wait for confirmation, each once, in call order (also in `details.tools`). */
    readonly toolNames: readonly string[],
  ) {
    const tools = toolNames.map((name) => `"${name}"`).join(', ');
    super(
      'AGENT_TOOL_CONFIRMATION_UNSUPPORTED',
      `Agent "${agentName}" needs the user's confirmation to call ${tools}, which it cannot ask for while it runs as a tool; that call did not run. ` +
        `Fix: give that tool to an agent of the conversation (a sub-agent reached by transfer), or drop its requireConfirmation.`,
      { details: { agent: agentName, tools: [...toolNames] } },
    );
  }
}
