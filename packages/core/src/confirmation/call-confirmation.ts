import type { ConfirmationDecisionKind } from './confirmation-decision';

/**
 * How a gated call was settled, recorded on its function response (`FunctionResponse.confirmation`)
 * when more than a person's plain yes or no settled it: an edit, a rejection with a message, an answer
 * given instead of the tool's result. For people and audits; adapters never send it to a model (what
 * the model needs to know is in the response itself).
 */
export interface CallConfirmation {
  /** What was decided. */
  decision: ConfirmationDecisionKind;
  /** Who decided: `user`, the person answering the request. */
  by: 'user';
  /** With `edit`: the arguments the call ran with (the model's are in its call). */
  args?: Record<string, unknown>;
  /** With `reject`: the person's message. */
  message?: string;
}
