import type { ConfirmationDecisionKind } from './confirmation-decision';

/**
 * How a gated call was settled, recorded on its function response (`FunctionResponse.confirmation`)
 * when more than a person's plain yes or no settled it: an edit, a rejection with a message, an answer
 * given instead of the tool's result. For people and audits; adapters never send it to a model (what
 * the model needs to know is in the response itself). A call that ran on a remembered grant carries
 * `{ decision: 'approve', by: 'grant', grantId }`, and an approval that remembered a grant names it, so an audit tells calls a person was asked about from granted ones.
 */
export interface CallConfirmation {
  /** What was decided. */
  decision: ConfirmationDecisionKind;
  /**
   * Who decided: `user`, the person answering the request; `grant`, a remembered grant (see `grantId`),
   * nobody asked; `policy`, the runner's or agent's `confirmationPolicy` (`approve` or `reject`), nobody asked.
   */
  by: 'user' | 'grant' | 'policy';
  /** The grant that covered the call (`by: 'grant'`), or that the person's approval remembered (`by: 'user'`). */
  grantId?: string;
  /** With `edit`: the arguments the call ran with (the model's are in its call). */
  args?: Record<string, unknown>;
  /** With `reject`: the person's message (`by: 'user'`) or the policy's reason (`by: 'policy'`). */
  message?: string;
  /** With `approve` by the policy: its reason, when it gave one. */
  reason?: string;
}
