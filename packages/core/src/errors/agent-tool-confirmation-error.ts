import { ToolsmithError } from './toolsmith-error';

/**
 * An agent run as a tool (`AgentTool`) reached a call that needs the user's credential (a sign-in or
 * an API key: `@Tool({ auth })`, `ctx.requestCredential`). An `AgentTool` relays its agent's
 * confirmation requests to the outer run's client, but not credential requests: the call did not run,
 * and the `AgentTool` call fails with this error (code `AGENT_TOOL_CONFIRMATION_UNSUPPORTED`,
 * `details.tools` naming the waiting tools).
 */
export class AgentToolConfirmationError extends ToolsmithError {
  constructor(
    /** The agent the `AgentTool` runs, whose tool call asked for a credential. */
    readonly agentName: string,
    /** The tools whose calls wait for a credential, each once, in call order (also in `details.tools`). */
    readonly toolNames: readonly string[],
  ) {
    const tools = toolNames.map((name) => `"${name}"`).join(', ');
    super(
      'AGENT_TOOL_CONFIRMATION_UNSUPPORTED',
      `Agent "${agentName}" needs the user's credential to call ${tools}, which it cannot ask for while it runs as a tool; that call did not run. ` +
        `Fix: give that tool to an agent of the conversation (a sub-agent reached by transfer), or let the user sign in through such an agent first.`,
      { details: { agent: agentName, tools: [...toolNames] } },
    );
  }
}
