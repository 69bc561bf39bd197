import type { CallConfirmation } from './call-confirmation';
import type { ConfirmationPolicyVerdict } from './confirmation-policy';

/**
 * One call made inside an `AgentTool` (by its agent, a sub-agent it transferred to, or an agent tool
 * nested in it) that a confirmation settled or the confirmation policy judged, as recorded on the agent
 * tool's own function response (`FunctionResponse.innerCalls`): the outer session, which is what the dev
 * UI, `toolsmith run` and an audit read, so tells asked from granted calls inside agents too. For people
 * and audits; adapters never send it to a model.
 */
export interface InnerCallRecord {
  /** The inner agent whose model made the call. */
  agent: string;
  /** The call, as its agent's model made it: its id (in the inner session) and its tool. */
  call: { id: string; name: string };
  /** How its confirmation was settled, as on its own response (`by: 'grant'` with the `grantId` for a call a remembered grant let run). */
  confirmation?: CallConfirmation;
  /** What the confirmation policy decided on it (either mode), from its response or, for a call that waited for the person, its request. */
  policy?: ConfirmationPolicyVerdict;
}
