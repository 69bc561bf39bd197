import { ToolsmithError } from './toolsmith-error';

/**
 * A {@link GrantService} refused to store a grant: its scope, user, session, tool name, schema hash,
 * condition or expiry is not what a grant takes (`expiresAt` must be a whole number of ms since the
 * epoch, at most `Number.MAX_SAFE_INTEGER`). Nothing was stored. Every store refuses the same grants.
 */
export class InvalidGrantError extends ToolsmithError {
  constructor(problem: string, options?: { cause?: unknown }) {
    super('INVALID_GRANT', `The grant was refused: ${problem}. Nothing was stored.`, { details: { problem }, cause: options?.cause });
  }
}
