import type { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';
import { validatorFor } from '../validation/schema-validator';
import type { CallConfirmation } from './call-confirmation';
import type { ConfirmationGrant, GrantService } from './grant-service';
import { toolSchemaHash } from './tool-schema-hash';

/**
 * Decides a gated call before the person is asked: what settled it (the call then runs without
 * asking, and its response records this), or `undefined` to ask the person.
 */
export type ConfirmationGate = (tool: BaseTool, args: Record<string, unknown>, context: ToolContext) => Promise<CallConfirmation | undefined>;

/**
 * The gate of remembered grants: a call runs without asking when a grant of its app covers its
 * session or user (or the whole app), names its tool, holds the hash of the tool's current parameter
 * schema, has not expired, and its condition (if any) accepts the call's validated arguments.
 */
export function grantGate(grants: GrantService, appName: string): ConfirmationGate {
  return async (tool, args, context) => {
    const candidates = await grants.applicableGrants({ appName, userId: context.userId, sessionId: context.sessionId, toolName: tool.name });
    if (candidates.length === 0) return undefined;
    const hash = toolSchemaHash(tool.parameters);
    const now = Date.now();
    const grant = candidates.find((candidate) => covers(candidate, hash, args, now));
    return grant ? { decision: 'approve', by: 'grant', grantId: grant.id } : undefined;
  };
}

function covers(grant: ConfirmationGrant, hash: string, args: Record<string, unknown>, now: number): boolean {
  if (grant.schemaHash !== hash) return false;
  if (grant.expiresAt !== undefined && grant.expiresAt <= now) return false;
  if (grant.condition === undefined) return true;
  try {
    return validatorFor(grant.condition)(args) === true;
  } catch {
    return false; // a condition that does not compile covers nothing: the person is asked
  }
}
