import { type ToolConfirmation, ToolsmithError } from '@toolsmith/core';
import type { McpRequestExtra } from './mcp-request-extra';

/**
 * Asks the user through the client (MCP elicitation) whether the call may run. Returns the answer,
 * or the error that kept the question from being answered.
 */
export async function elicitConfirmation(
  extra: McpRequestExtra,
  toolName: string,
  requested: ToolConfirmation,
  timeoutMs: number,
): Promise<boolean | ToolsmithError> {
  const payload = requested.payload === undefined ? '' : `\n\nDetails: ${JSON.stringify(requested.payload)}`;
  try {
    const answer = await extra.mcpReq.send(
      {
        method: 'elicitation/create',
        params: {
          message: `${requested.hint ?? `Allow the call to tool "${toolName}"?`}${payload}`,
          requestedSchema: {
            type: 'object',
            properties: { confirmed: { type: 'boolean', title: 'Approve', description: `Run tool "${toolName}"?` } },
            required: ['confirmed'],
          },
        },
      },
      { timeout: timeoutMs },
    );
    return answer.action === 'accept' && answer.content?.confirmed === true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new ToolsmithError('MCP_CONFIRMATION_FAILED', `Could not ask the user to confirm tool "${toolName}": ${reason}`, {
      cause: error,
    });
  }
}

