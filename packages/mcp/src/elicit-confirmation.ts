import { type ToolConfirmation, ToolsmithError, thrownMessage } from '@toolsmith/core';
import { type ElicitationSchema, confirmationFromForm, elicitationMessage } from './elicitation-form';
import { MCP_EDITABLE_META } from './mcp-confirmation-form';
import type { McpRequestExtra } from './mcp-request-extra';

/**
 * Asks the user through the client (a 2025-era MCP elicitation) whether the call may run: a form with one
 * boolean `confirmed` (with `_meta: { "toolsmith/editable": false }` when the tool asked with
 * `editable: false`, which the form cannot say), or, when the tool asked for a form (`payloadSchema`, already turned into `form`),
 * that form, whose accepted content becomes the confirmation's payload (see {@link confirmationFromForm}).
 * Returns the confirmation the call runs again with, or the error that kept the question from being answered.
 */
export async function elicitConfirmation(
  extra: McpRequestExtra,
  call: { id: string; name: string },
  requested: ToolConfirmation,
  form: ElicitationSchema | undefined,
  timeoutMs: number,
): Promise<ToolConfirmation | ToolsmithError> {
  let answer;
  try {
    answer = await extra.mcpReq.send(
      {
        method: 'elicitation/create',
        params: {
          message: elicitationMessage(call.name, requested),
          ...(!form && requested.editable === false ? { _meta: { [MCP_EDITABLE_META]: false } } : {}),
          requestedSchema: form ?? {
            type: 'object',
            properties: { confirmed: { type: 'boolean', title: 'Approve', description: `Run tool "${call.name}"?` } },
            required: ['confirmed'],
          },
        },
      },
      { timeout: timeoutMs },
    );
  } catch (error) {
    const reason = thrownMessage(error);
    return new ToolsmithError('MCP_CONFIRMATION_FAILED', `Could not ask the user to confirm tool "${call.name}": ${reason}`, {
      cause: error,
    });
  }
  if (form && requested.payloadSchema !== undefined) return confirmationFromForm(call.id, { ...requested, payloadSchema: requested.payloadSchema }, answer);
  const confirmed = answer.action === 'accept' ? answer.content?.confirmed : false;
  if (typeof confirmed !== 'boolean') {
    // Not the person's "no": the client sent something else than the form's answer, so nobody decided.
    const content = JSON.stringify(answer.content ?? null);
    return new ToolsmithError(
      'MCP_CONFIRMATION_FAILED',
      `The client accepted the confirmation of tool "${call.name}" without a boolean "confirmed" (its content: ${content.length > 200 ? `${content.slice(0, 200)}…` : content}), ` +
        'so nobody approved or rejected the call; the tool did not run.',
    );
  }
  return { hint: requested.hint, payload: requested.payload, confirmed };
}
