import { ToolsmithError } from './toolsmith-error';

const FIX = "Fix the policy: it must return { decision: 'allow' | 'ask' }, { decision: 'deny', reason } or undefined, and not throw.";

/**
 * A `confirmationPolicy` threw, or returned something that is not a decision. The call fails safe: in
 * `enforce` mode it waits for the person, as if the policy had said `ask`; in `shadow` mode it goes on as
 * without a policy. The error is recorded in the call's policy verdict (`policy.error`) and on its span.
 */
export class ConfirmationPolicyError extends ToolsmithError {
  constructor(toolName: string, problem: string, options: { cause?: unknown } = {}) {
    super('CONFIRMATION_POLICY_FAILED', `The confirmation policy failed on a call to tool "${toolName}": ${problem}. ${FIX}`, {
      ...options,
      details: { toolName },
    });
  }
}
