import type { ElicitResult } from '@modelcontextprotocol/client';
import type { JsonSchema } from '@toolsmith/core';
import type { McpInputAnswers, McpInputRequest } from './mcp-connection';
import { isConfirmationForm, isEditableConfirmationForm } from './mcp-confirmation-form';

/**
 * The payload of the confirmation request a {@link McpInputRequest} becomes: what the person is shown,
 * and what the call needs to be sent again once they answered (the session keeps it with the request).
 */
export interface McpInputPrompt {
  /** Marks the payload as an MCP server's request for input. */
  mcpInput: {
    /** The server, e.g. `http://127.0.0.1:3000/mcp`. */
    server: string;
    /** The server's name of the tool that asked. */
    tool: string;
    /** `legacy` (an `elicitation/create` during the call) or `modern` (a 2026-07-28 `input_required`). */
    era: McpInputRequest['era'];
    /** The server's keys of its forms, in order. */
    keys: string[];
    /** The server's opaque state, echoed when the call is sent again (2026-07-28). */
    requestState?: string;
  };
  /** Each form's message, by key. */
  messages: Record<string, string>;
}

/**
 * The confirmation request for a server's input request: the hint is the server's message, the payload
 * schema its form (several forms: an object with one property per form key). A server's confirmation of
 * the call itself (one form that {@link isConfirmationForm} recognises) is a plain confirmation instead,
 * without a payload schema: the runner's own decisions (approve, edit, reject, respond) answer it (not edit
 * when the server's form offers none: `editable: false`). A form
 * is not editable (`editable: false`): the server asked it about the call as it was made, and only that
 * call can be sent again with its answers (a 2026-07-28 `requestState` is bound to its arguments), so
 * the runner refuses an `edit` before anything is stored or sent, and the request stays open.
 */
export function inputPrompt(server: string, tool: string, request: McpInputRequest): { hint: string; payload: McpInputPrompt; payloadSchema?: JsonSchema; editable?: false } {
  const keys = Object.keys(request.forms);
  const messages = Object.fromEntries(keys.map((key) => [key, request.forms[key].message]));
  const payload: McpInputPrompt = { mcpInput: { server, tool, era: request.era, keys }, messages };
  if (request.requestState !== undefined) payload.mcpInput.requestState = request.requestState;
  if (keys.length === 1 && isConfirmationForm(request.forms[keys[0]])) {
    // A server's confirmation that takes no edit (a Toolsmith tool that asked with `editable: false`) is not editable here either.
    return isEditableConfirmationForm(request.forms[keys[0]]) ? { hint: messages[keys[0]], payload } : { hint: messages[keys[0]], payload, editable: false };
  }
  const schemaOf = (key: string) => request.forms[key].requestedSchema as JsonSchema;
  const payloadSchema: JsonSchema =
    keys.length === 1
      ? schemaOf(keys[0])
      : { type: 'object', properties: Object.fromEntries(keys.map((key) => [key, schemaOf(key)])), required: keys, additionalProperties: false };
  return { hint: keys.map((key) => messages[key]).join('\n'), payload, payloadSchema, editable: false };
}

/** The person's approved (and checked) payload as the answers the call is sent again with. */
export function inputAnswers(prompt: McpInputPrompt, payload: unknown): McpInputAnswers {
  const { keys, requestState } = prompt.mcpInput;
  const contentOf = (key: string): ElicitResult['content'] =>
    (keys.length === 1 ? payload : (payload as Record<string, unknown> | undefined)?.[key]) as ElicitResult['content'];
  const responses = Object.fromEntries(keys.map((key) => [key, { action: 'accept', content: contentOf(key) } as ElicitResult]));
  return requestState === undefined ? { responses } : { responses, requestState };
}
