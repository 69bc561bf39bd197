import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';

/**
 * The `_meta` key of a 2025-era elicitation (`elicitation/create`) by which a Toolsmith server says its
 * confirmation is not editable (`false`: the tool asked with `editable: false`, so the question is about
 * the call as it was made). The yes/no form has no field to say it; `McpToolset` reads it from any server.
 */
export const MCP_EDITABLE_META = 'toolsmith/editable';

/** The decisions of a confirmation, as a Toolsmith server's 2026-07-28 form offers them. */
const DECISIONS = ['approve', 'edit', 'reject', 'respond'];
/** The decisions of a confirmation the tool asked with `editable: false`: no edit. */
const DECISIONS_WITHOUT_EDIT = ['approve', 'reject', 'respond'];
/** The fields of that form: the decision, and what goes with edit, reject and respond. */
const DECISION_FIELDS = ['decision', 'arguments', 'message', 'result'];

/**
 * Whether a server's form is a confirmation of the call itself, which the runner's own decisions answer
 * (so the person is asked a plain confirmation, not a form): the yes/no form of a 2025-era confirmation
 * (one boolean field, `confirmed`, as `serveMcp` elicits), or the four-decision form of a 2026-07-28 one
 * (`decision`, one of `approve`, `edit`, `reject`, `respond`, beside `arguments`, `message` and `result`),
 * or its three-decision form for a tool that asked with `editable: false` (no `edit`, no `arguments`: see
 * {@link isEditableConfirmationForm}).
 */
export function isConfirmationForm(form: ElicitRequestFormParams): boolean {
  const properties = (form.requestedSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const names = Object.keys(properties);
  if (names.length === 1 && names[0] === 'confirmed') return properties.confirmed.type === 'boolean';
  const decisions = properties.decision?.enum;
  if (!names.includes('decision') || !names.every((name) => DECISION_FIELDS.includes(name)) || !Array.isArray(decisions)) return false;
  const offers = (expected: string[]) => decisions.length === expected.length && expected.every((decision) => decisions.includes(decision));
  return offers(DECISIONS) || (offers(DECISIONS_WITHOUT_EDIT) && !names.includes('arguments'));
}

/**
 * Whether a confirmation form ({@link isConfirmationForm}) takes an edit: every one but the three-decision
 * form, and a form whose `_meta` says `"toolsmith/editable": false` ({@link MCP_EDITABLE_META}).
 */
export function isEditableConfirmationForm(form: ElicitRequestFormParams): boolean {
  if ((form._meta as Record<string, unknown> | undefined)?.[MCP_EDITABLE_META] === false) return false;
  const decisions = (form.requestedSchema?.properties as Record<string, Record<string, unknown>> | undefined)?.decision?.enum;
  return !Array.isArray(decisions) || decisions.includes('edit');
}

/**
 * The content that approves a call through its confirmation form ({@link isConfirmationForm}): `{ confirmed: true }`
 * or `{ decision: "approve" }`. The call it answers is the one the person approved, with the arguments they
 * approved (edited ones when they edited them), so the server runs exactly those.
 */
export function approvingContent(form: ElicitRequestFormParams): Record<string, string | boolean> {
  return 'confirmed' in (form.requestedSchema?.properties ?? {}) ? { confirmed: true } : { decision: 'approve' };
}
