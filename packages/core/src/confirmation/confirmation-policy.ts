import { AgentConfigError } from '../errors/agent-config-error';
import { ConfirmationPolicyError } from '../errors/confirmation-policy-error';
import { policyThrewProblem } from '../errors/messages';
import type { ToolsmithError } from '../errors/toolsmith-error';
import type { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';

/** What a {@link ConfirmationPolicy} is asked about: one call with valid arguments, before anyone is asked. */
export interface ConfirmationPolicyInput {
  /** The tool called. */
  tool: BaseTool;
  /** The call's validated arguments (after `beforeTool` callbacks and Standard Schema outputs). */
  args: Record<string, unknown>;
  /** The user of the session. */
  userId: string;
  /** The session. */
  sessionId: string;
  /** The call's context (state, agent name, function call id). */
  context: ToolContext;
}

/**
 * A policy's decision on a call: `allow` runs it without asking anyone; `deny` refuses it (the model
 * gets `TOOL_CALL_DENIED` with the reason); `ask` asks the person (remembered grants may still cover
 * it). `undefined`: no opinion, the tool's own `requireConfirmation` rule decides, as without a policy.
 */
export type ConfirmationPolicyDecision = { decision: 'allow'; reason?: string } | { decision: 'deny'; reason: string } | { decision: 'ask'; reason?: string };

/** Decides calls before the person (and before remembered grants) is consulted; see docs/confirmation.md. */
export type ConfirmationPolicy = (input: ConfirmationPolicyInput) => ConfirmationPolicyDecision | undefined | Promise<ConfirmationPolicyDecision | undefined>;

/**
 * A {@link ConfirmationPolicy} with its mode: `enforce` (the default) acts on its decisions; `shadow`
 * only records them (on the call's response and span) while the calls go as without a policy, for
 * rolling a rule out.
 */
export interface ConfirmationPolicyOptions {
  /** The policy. */
  decide: ConfirmationPolicy;
  /** `enforce` (default) or `shadow`. */
  mode?: 'enforce' | 'shadow';
}

/** How a `confirmationPolicy` option is given: the function alone (enforced), or with its mode. */
export type ConfirmationPolicySetting = ConfirmationPolicy | ConfirmationPolicyOptions;

/**
 * What the policy decided on a call, recorded for audits on its function response (`policy`), on the
 * confirmation request when the call waits (`actions.requestedToolConfirmations[callId].policy`) and
 * on its `execute_tool` span. `error` when the policy threw: the decision is then `ask` in `enforce`
 * mode (nothing runs without a yes) and nothing in `shadow` mode.
 */
export interface ConfirmationPolicyVerdict {
  /** `enforce`: the decision was acted on; `shadow`: only recorded. */
  mode: 'enforce' | 'shadow';
  /** What the policy decided; `none` when it gave no opinion (or threw in shadow mode). */
  decision: 'allow' | 'deny' | 'ask' | 'none';
  /** The policy's reason, when it gave one. */
  reason?: string;
  /** The policy threw: `CONFIRMATION_POLICY_FAILED` and its message. */
  error?: { code: string; message: string };
}

/**
 * Refuses a `confirmationPolicy` option that is neither a function nor `{ decide, mode? }` with `mode`
 * `'enforce'` or `'shadow'` (exactly), with `AGENT_CONFIG_INVALID`: a misspelt mode must not quietly
 * switch enforcement off. `where` names the option's owner for the message.
 */
export function checkPolicySetting(setting: unknown, where: string): void {
  if (setting === undefined || typeof setting === 'function') return;
  const refuse = (problem: string) => new AgentConfigError(`The confirmationPolicy of ${where} ${problem}.`);
  if (typeof setting !== 'object' || setting === null) throw refuse('must be a function or { decide, mode? }');
  const { decide, mode } = setting as { decide?: unknown; mode?: unknown };
  if (typeof decide !== 'function') throw refuse('needs a "decide" function');
  if (mode !== undefined && mode !== 'enforce' && mode !== 'shadow') {
    throw refuse(`has "mode" ${describe(mode)}; it must be "enforce" (the default) or "shadow"`);
  }
}

/** The policy's mode and function, from the option as given. */
export function policyOptions(setting: ConfirmationPolicySetting): Required<ConfirmationPolicyOptions> {
  return typeof setting === 'function' ? { decide: setting, mode: 'enforce' } : { decide: setting.decide, mode: setting.mode ?? 'enforce' };
}

/**
 * Asks the policy about a call and returns its verdict; never throws. A policy that throws, or returns
 * something that is not a decision, fails safe: in `enforce` mode the call waits for the person (`ask`),
 * in `shadow` mode it goes on as without a policy; either way the verdict holds the error.
 */
export async function judgeCall(setting: ConfirmationPolicySetting, input: ConfirmationPolicyInput): Promise<ConfirmationPolicyVerdict> {
  const { decide, mode } = policyOptions(setting);
  let decided: unknown;
  try {
    decided = await decide(input);
  } catch (thrown) {
    // The verdict is stored in the session and shown to the person: never the thrown message, which may hold a secret.
    return failedVerdict(mode, new ConfirmationPolicyError(input.tool.name, policyThrewProblem(thrown), { cause: thrown }));
  }
  if (decided === undefined) return { mode, decision: 'none' };
  if (!isDecision(decided)) return failedVerdict(mode, new ConfirmationPolicyError(input.tool.name, `it returned ${describe(decided)}`));
  const verdict: ConfirmationPolicyVerdict = { mode, decision: decided.decision };
  if (decided.reason !== undefined) verdict.reason = decided.reason;
  return verdict;
}

function failedVerdict(mode: 'enforce' | 'shadow', error: ToolsmithError): ConfirmationPolicyVerdict {
  return { mode, decision: mode === 'shadow' ? 'none' : 'ask', error: { code: error.code, message: error.message } };
}

function isDecision(value: unknown): value is ConfirmationPolicyDecision {
  if (typeof value !== 'object' || value === null) return false;
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  if (reason !== undefined && typeof reason !== 'string') return false;
  if (decision === 'deny') return typeof reason === 'string' && reason.trim() !== '';
  return decision === 'allow' || decision === 'ask';
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
